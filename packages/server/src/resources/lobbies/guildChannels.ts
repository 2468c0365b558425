/**
 * What an SDK client needs to pick a channel to link a lobby to (docs/lobbies.md#guilds-and-channels-for-linking):
 * a guild's channels as the caller sees them, each with whether the caller may link it, whether
 * every member may read and write it, and the caller's application's lobby linked to it.
 */
import { ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import { channelPermissions, hasAll, type PermissionSubject } from '../../domain/permissions.js';
import type { Principal } from '../../http/authenticator.js';
import type { ChannelRecord, OverwriteRecord } from '../../storage/index.js';
import { loadGuildAccess } from '../access/index.js';
import { overwritesByChannel } from '../channels/index.js';
import type { ServiceDeps } from '../deps.js';
import { applicationOf, idleExpired } from './shared.js';

/** The channel types a lobby links to (links.ts checks the same). */
const LINKABLE_TYPES: ReadonlySet<number> = new Set([ChannelTypes.GUILD_TEXT]);

/** One channel of GET /users/@me/guilds/{guild.id}/channels. */
export interface LinkableChannelWire {
  id: string;
  name: string;
  type: number;
  position: number;
  parent_id: string | null;
  linkable: boolean;
  viewable_and_writeable_by_all_members: boolean;
  linked_lobby: { application_id: string; lobby_id: string } | null;
}

export function createLobbyGuildOperations(deps: ServiceDeps) {
  const { storage, clock } = deps;

  return {
    /**
     * GET /users/@me/guilds/{guild.id}/channels (Bearer with sdk.social_layer): the channels the
     * caller can view (and the categories holding them), in stored order. 10004 for an unknown
     * guild, 50001 for one the caller is not in.
     */
    async listChannels(principal: Principal, guildId: string): Promise<LinkableChannelWire[]> {
      const applicationId = applicationOf(principal);
      const nowMs = clock.now();
      const access = await loadGuildAccess(storage, { guildId, userId: principal.user.id, nowMs });
      const channels = await storage.channels.listByGuild(access.guild.id);
      const byChannel = overwritesByChannel(
        await storage.overwrites.listByChannels(channels.map((c) => c.id)),
      );
      const overwritesOf = (c: ChannelRecord): readonly OverwriteRecord[] =>
        byChannel.get(c.id) ?? [];
      const mine = (c: ChannelRecord) => access.inChannel(c, overwritesOf(c));
      // Someone with only @everyone: what every member of the guild may do at least.
      const everyone: PermissionSubject = {
        ...access.subject,
        member: { userId: '0', roleIds: [], communicationDisabledUntil: null },
      };
      const everyoneIn = (c: ChannelRecord) =>
        channelPermissions(everyone, {
          type: c.type,
          overwrites: overwritesOf(c).map((o) => ({
            id: o.targetId,
            type: o.type,
            allow: o.allow,
            deny: o.deny,
          })),
        });
      const canView = (c: ChannelRecord) => hasAll(mine(c), P.VIEW_CHANNEL);
      const parentsOfVisible = new Set(
        channels.filter((c) => c.parentId !== null && canView(c)).map((c) => c.parentId),
      );
      const visible = channels.filter((c) => canView(c) || parentsOfVisible.has(c.id));
      const linked = new Map<string, string>();
      const lobbies = await storage.lobbies.listLinkedToChannels(
        applicationId,
        visible.map((c) => c.id),
      );
      for (const lobby of lobbies) {
        if (lobby.linkedChannelId === null || linked.has(lobby.linkedChannelId)) continue;
        if (idleExpired(lobby, await storage.lobbies.countMembers(lobby.id), nowMs)) continue;
        linked.set(lobby.linkedChannelId, lobby.id);
      }
      return visible.map((c) => {
        const lobbyId = linked.get(c.id);
        return {
          id: c.id,
          name: c.name ?? '',
          type: c.type,
          position: c.position,
          parent_id: c.parentId,
          linkable: LINKABLE_TYPES.has(c.type) && hasAll(mine(c), P.MANAGE_CHANNELS),
          viewable_and_writeable_by_all_members: hasAll(
            everyoneIn(c),
            P.VIEW_CHANNEL | P.SEND_MESSAGES,
          ),
          linked_lobby:
            lobbyId === undefined ? null : { application_id: applicationId, lobby_id: lobbyId },
        };
      });
    },
  };
}
