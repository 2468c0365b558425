/**
 * People leave activity instances without the leave route too, as on the platform: when they
 * leave the instance's voice channel (another channel, or none: a disconnect ends a session's
 * voice states), and when they leave its guild (left, kicked or banned). The watch reads the
 * guilds' dispatches on the bus (VOICE_STATE_UPDATE, GUILD_MEMBER_REMOVE) and has the instance
 * service take the person out, each leave announced as EMBEDDED_ACTIVITY_UPDATE. Several nodes
 * watching is harmless: a second leave of the same person changes nothing.
 *
 * @module
 */
import { ChannelTypes } from '@guildhall/protocol';
import type { BusEvent, EventBus, Subscription } from '../bus/index.js';
import { GUILD_SUBJECT_PREFIX, type DispatchEnvelope } from '../events/dispatcher.js';
import type { Storage } from '../storage/index.js';
import type { ActivityInstanceService } from './instances.js';

const VOICE_TYPES = new Set<number>([ChannelTypes.GUILD_VOICE, ChannelTypes.GUILD_STAGE_VOICE]);

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function createParticipantWatch(deps: {
  bus: EventBus;
  storage: Storage;
  instances: ActivityInstanceService;
  onError: (err: unknown) => void;
}) {
  const { storage, instances } = deps;
  let subscription: Subscription | null = null;

  /** Whether an instance runs in a voice channel (a text channel's needs no voice). */
  const inVoiceChannel = async (channelId: string) => {
    const channel = await storage.channels.findById(channelId);
    return channel !== null && VOICE_TYPES.has(channel.type);
  };

  const handle = async (event: BusEvent) => {
    // The bus carries the dispatch's envelope (events/dispatcher.ts); `data` is the wire's `d`.
    const envelope = (event.data ?? {}) as Partial<DispatchEnvelope>;
    const data = (envelope.data ?? {}) as Record<string, unknown>;
    const guildId = text(data['guild_id']);
    if (guildId === null) return;
    if (event.type === 'VOICE_STATE_UPDATE') {
      const userId = text(data['user_id']);
      const channelId = text(data['channel_id']);
      if (userId === null) return;
      await instances.leaveWhere(
        userId,
        async (instance) =>
          instance.guildId === guildId &&
          instance.channelId !== channelId &&
          (await inVoiceChannel(instance.channelId)),
      );
    } else if (event.type === 'GUILD_MEMBER_REMOVE') {
      const userId = text((data['user'] as Record<string, unknown> | undefined)?.['id']);
      if (userId === null) return;
      await instances.leaveWhere(userId, (instance) => instance.guildId === guildId);
    }
  };

  return {
    async start() {
      subscription = await deps.bus.subscribe(`${GUILD_SUBJECT_PREFIX}*`, (event) =>
        handle(event).catch(deps.onError),
      );
    },
    close() {
      subscription?.unsubscribe();
      subscription = null;
    },
  };
}
