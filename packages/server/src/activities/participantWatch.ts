/**
 * People leave activity instances without the leave route too, as on the platform: when they
 * leave the instance's voice channel (another channel, or none: a disconnect ends a session's
 * voice states), and when they leave its guild (left, kicked or banned). The watch follows the
 * dispatches its own process announces (VOICE_STATE_UPDATE, GUILD_MEMBER_REMOVE: each announced
 * by the one node that made the change, `WatchedDispatcher`), so no node receives every guild's
 * subject, and has the instance service take the person out, each leave announced as
 * EMBEDDED_ACTIVITY_UPDATE. A text channel's or a DM's instance has no voice to lose: a person
 * leaves those when their last gateway session ends (`personGone`, which the gateway calls once
 * their presence went offline, not while another session of theirs remains on the node).
 *
 * @module
 */
import { ChannelTypes } from '@guildhall/protocol';
import type { Component } from '../domain/lifecycle.js';
import type { Dispatch, WatchedDispatcher } from '../events/dispatcher.js';
import type { Storage } from '../storage/index.js';
import type { ActivityInstanceService } from './instances.js';

const VOICE_TYPES = new Set<number>([ChannelTypes.GUILD_VOICE, ChannelTypes.GUILD_STAGE_VOICE]);

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

/** The watch as a part of the app: it follows dispatches from its start to its stop. */
export function createParticipantWatch(deps: {
  events: WatchedDispatcher;
  storage: Storage;
  instances: ActivityInstanceService;
  onError: (err: unknown) => void;
}): Component & { personGone: (userId: string) => void } {
  const { storage, instances } = deps;
  let unwatch: (() => void) | null = null;

  /** Whether an instance runs in a voice channel (a text channel's needs no voice). */
  const inVoiceChannel = async (channelId: string) => {
    const channel = await storage.channels.findById(channelId);
    return channel !== null && VOICE_TYPES.has(channel.type);
  };

  const handle = async (event: Dispatch) => {
    const data = event.data as Record<string, unknown>;
    const guildId = event.guildId ?? text(data['guild_id']);
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
    name: 'activity participants',
    personGone(userId) {
      instances
        .leaveWhere(userId, async (instance) => !(await inVoiceChannel(instance.channelId)))
        .catch(deps.onError);
    },
    start() {
      unwatch ??= deps.events.watch((event) => {
        if (event.type !== 'VOICE_STATE_UPDATE' && event.type !== 'GUILD_MEMBER_REMOVE') return;
        handle(event).catch(deps.onError);
      });
    },
    stop() {
      unwatch?.();
      unwatch = null;
    },
  };
}
