/** A lobby's linked guild channel: linking, unlinking, and the invites into it. */
import { ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import { loadChannelAccess } from '../channels/index.js';
import { issueInvite } from '../invites/index.js';
import { lobbyDispatches } from './dispatch.js';
import { LOBBY_LIMITS, LobbyMemberFlags } from './schemas.js';
import { serializeLobby } from './serialize.js';
import {
  applicationOf,
  loadLobby,
  requireMember,
  viewOf,
  type LobbyServiceDeps,
} from './shared.js';

/** The channel types a lobby links to: guild text channels. */
const LINKABLE_TYPES: ReadonlySet<number> = new Set([ChannelTypes.GUILD_TEXT]);

export function createLobbyLinkOperations(deps: LobbyServiceDeps) {
  const { storage, clock } = deps;
  const consume = deps.limits.consume.bind(deps.limits);

  /**
   * An invite into the linked channel for `userId`: one use, one hour, only for them; 50229 for a
   * provisional account.
   */
  const inviteFor = async (
    principal: Principal,
    target: { lobbyId: string; userId: string },
    operation: 'lobby_invite_self' | 'lobby_invite_user',
  ) => {
    const { lobbyId, userId } = target;
    const applicationId = applicationOf(principal);
    await consume(applicationId, operation);
    return storage.transaction(async (tx) => {
      const now = clock.now();
      const view = await loadLobby(tx, { lobbyId, applicationId, now });
      if (!view.members.some((m) => m.userId === userId)) {
        throw new ApiError(userId === principal.user.id ? 'MISSING_ACCESS' : 'UNKNOWN_MEMBER');
      }
      const channel = view.linkedChannel?.channel;
      if (channel?.guildId == null) throw new ApiError('UNKNOWN_CHANNEL');
      // A provisional account cannot join a guild (it has no session to accept an invite with):
      // the SDK asks the player to merge their account instead (JoinLinkedLobbyGuild).
      if (await tx.provisional.isProvisional(userId)) throw new ApiError('INVALID_USER_TYPE');
      const invite = await issueInvite(tx, {
        guildId: channel.guildId,
        channelId: channel.id,
        inviterId: principal.user.id,
        maxAgeSeconds: LOBBY_LIMITS.inviteMaxAgeSeconds,
        maxUses: 1,
        targetUserIds: [userId],
        now,
      });
      return { code: invite.code };
    });
  };

  return {
    /**
     * PATCH /lobbies/{id}/channel-linking: a member with CanLinkLobby links a guild text channel
     * in which they have MANAGE_CHANNELS and no other lobby links (50035); without channel_id
     * the lobby is unlinked.
     */
    async link(principal: Principal, lobbyId: string, channelId: string | null) {
      const applicationId = applicationOf(principal);
      await consume(applicationId, 'lobby_channel_link');
      const view = await storage.transaction(async (tx) => {
        const now = clock.now();
        const view = await loadLobby(tx, { lobbyId, applicationId, now });
        const member = requireMember(view, principal.user.id);
        if ((member.flags & LobbyMemberFlags.CAN_LINK_LOBBY) === 0) {
          throw new ApiError('MISSING_PERMISSIONS');
        }
        if (channelId !== null) {
          const access = await loadChannelAccess(tx, {
            channelId,
            userId: principal.user.id,
            nowMs: now,
          });
          access.require(P.MANAGE_CHANNELS);
          if (!LINKABLE_TYPES.has(access.channel.type)) {
            throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
          }
          // One lobby per channel (the platform's linked-channels guide); the guild's row, held
          // since the access check, keeps two links to one channel from crossing.
          if (await tx.lobbies.isChannelLinkedElsewhere(channelId, view.lobby.id)) {
            throw invalidField(
              ['channel_id'],
              'CHANNEL_ALREADY_LINKED',
              'This channel is already linked to another lobby.',
            );
          }
        }
        if (view.lobby.linkedChannelId === channelId) return view;
        await tx.lobbies.update(view.lobby.id, { linkedChannelId: channelId });
        const linked = await viewOf(tx, { ...view.lobby, linkedChannelId: channelId });
        afterCommit(tx, lobbyDispatches.update(linked));
        return linked;
      });
      return serializeLobby(view, { forApplication: principal.kind === 'bot' });
    },

    /** POST /lobbies/{id}/members/@me/invites: a member's own invite into the linked channel. */
    inviteSelf: (principal: Principal, lobbyId: string) =>
      inviteFor(principal, { lobbyId, userId: principal.user.id }, 'lobby_invite_self'),

    /** POST /lobbies/{id}/members/{user}/invites: the bot's invite for a member. */
    inviteUser: (principal: Principal, lobbyId: string, userId: string) =>
      inviteFor(principal, { lobbyId, userId }, 'lobby_invite_user'),
  };
}
