/**
 * A frame's event subscriptions (docs/activities.md#the-frame-protocol): the events a frame may
 * subscribe to and the scope each needs, the voice events kept to the activity's channel and the
 * member event to its guild, and the args each was subscribed with, which a dispatch may match.
 *
 * @module
 */
import { RpcErrorCodes } from '@guildhall/protocol';
import { FrameCommandError, type Args } from './frameArgs.js';
import type { FrameContext } from './frameHostTypes.js';

/** The events a frame may subscribe to, with the scope each needs (null: none). */
export const FRAME_EVENTS: Record<string, string | null> = {
  ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE: null,
  ACTIVITY_LAYOUT_MODE_UPDATE: null,
  ORIENTATION_UPDATE: null,
  VOICE_STATE_UPDATE: 'rpc.voice.read',
  SPEAKING_START: 'rpc.voice.read',
  SPEAKING_STOP: 'rpc.voice.read',
  CURRENT_USER_UPDATE: 'identify',
  RELATIONSHIP_UPDATE: 'relationships.read',
  CURRENT_GUILD_MEMBER_UPDATE: 'guilds.members.read',
  ENTITLEMENT_CREATE: null,
  ACTIVITY_JOIN: null,
};

function knownEvent(evt: string | null): string {
  if (evt === null || !(evt in FRAME_EVENTS)) {
    throw new FrameCommandError(RpcErrorCodes.INVALID_EVENT, `Invalid event: ${String(evt)}`);
  }
  return evt;
}

/** Subscribed events, each with the args it was subscribed with (`channel_id`...). */
export class FrameSubscriptions {
  private readonly subscribed = new Map<string, Args>();
  private readonly context: FrameContext;

  constructor(context: FrameContext) {
    this.context = context;
  }

  /** The args `evt` was subscribed with, or undefined when it is not. */
  get(evt: string): Args | undefined {
    return this.subscribed.get(evt);
  }

  clear(): void {
    this.subscribed.clear();
  }

  /** SUBSCRIBE: `requireScope` checks the scope the event needs. */
  subscribe(
    evt: string | null,
    args: Args,
    requireScope: (scope: string) => void,
  ): { evt: string } {
    const name = knownEvent(evt);
    const scope = FRAME_EVENTS[name];
    if (scope !== null && scope !== undefined) requireScope(scope);
    if (
      (name === 'VOICE_STATE_UPDATE' || name.startsWith('SPEAKING_')) &&
      !this.sameChannel(args)
    ) {
      throw new FrameCommandError(
        RpcErrorCodes.INVALID_CHANNEL,
        'Only the activity channel may be watched',
      );
    }
    if (name === 'CURRENT_GUILD_MEMBER_UPDATE' && args['guild_id'] !== this.context.guildId) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_GUILD, 'Only the activity guild');
    }
    this.subscribed.set(name, args);
    return { evt: name };
  }

  unsubscribe(evt: string | null): { evt: string } {
    const name = knownEvent(evt);
    this.subscribed.delete(name);
    return { evt: name };
  }

  /** Voice subscriptions name the activity's channel (or none: the activity's channel). */
  private sameChannel(args: Args): boolean {
    const channelId = args['channel_id'];
    return channelId === undefined || channelId === null || channelId === this.context.channelId;
  }
}
