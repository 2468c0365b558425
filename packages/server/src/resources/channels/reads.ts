/**
 * The channel service's reads: a guild's channel list, as visible to the caller on the date,
 * and one channel.
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import { CHANNEL_LIST_VISIBILITY_FROM_MS, hasAll } from '../../domain/permissions.js';
import type { Principal } from '../../http/authenticator.js';
import type { ChannelRecord } from '../../storage/index.js';
import { loadGuildAccess } from '../access/index.js';
import type { ServiceDeps } from '../deps.js';
import { loadChannelAccess } from './access.js';
import { isThreadOnlyType } from './rules.js';
import { obfuscateChannel, overwritesByChannel, serializeChannel } from './serialize.js';
import { groupTags } from './tags.js';

export function createChannelReads(deps: Pick<ServiceDeps, 'storage' | 'clock'>) {
  const { storage, clock } = deps;

  return {
    /**
     * GET /guilds/{id}/channels. From November 16, 2026 the channels the caller cannot view are
     * omitted entirely (spec, Table A); a category stays while any of its channels is visible
     * (docs/platform-notes.md#channel-obfuscation). Before that date every channel is listed, but
     * one the caller cannot view is listed as the gateway's obfuscated channel, so it shows nothing
     * more than that (no name, topic or last_message_id).
     */
    async list(principal: Principal, guildId: string) {
      const nowMs = clock.now();
      const access = await loadGuildAccess(storage, { guildId, userId: principal.user.id, nowMs });
      const channels = await storage.channels.listByGuild(access.guild.id);
      const byChannel = overwritesByChannel(
        await storage.overwrites.listByChannels(channels.map((c) => c.id)),
      );
      const tagsByChannel = groupTags(
        await storage.threads.listTags(
          channels.filter((c) => isThreadOnlyType(c.type)).map((c) => c.id),
        ),
      );
      const overwritesOf = (c: ChannelRecord) => byChannel.get(c.id) ?? [];
      const tagsOf = (c: ChannelRecord) => tagsByChannel.get(c.id) ?? [];
      const canView = (c: ChannelRecord) =>
        hasAll(access.inChannel(c, overwritesOf(c)), P.VIEW_CHANNEL);
      const parentsOfVisible = new Set(
        channels.filter((c) => c.parentId !== null && canView(c)).map((c) => c.parentId),
      );
      const visible = (c: ChannelRecord) => canView(c) || parentsOfVisible.has(c.id);
      if (nowMs >= CHANNEL_LIST_VISIBILITY_FROM_MS) {
        return channels.filter(visible).map((c) => serializeChannel(c, overwritesOf(c), tagsOf(c)));
      }
      return channels.map((c) => {
        const wire = serializeChannel(c, overwritesOf(c), tagsOf(c));
        return visible(c) ? wire : obfuscateChannel(wire, access.guild.id);
      });
    },

    /** GET /channels/{id}: VIEW_CHANNEL. */
    async get(principal: Principal, channelId: string) {
      const access = await loadChannelAccess(storage, {
        channelId,
        userId: principal.user.id,
        nowMs: clock.now(),
      });
      access.require(0n);
      return serializeChannel(
        access.channel,
        access.overwrites,
        await storage.threads.listTags([access.channel.id]),
      );
    },
  };
}
