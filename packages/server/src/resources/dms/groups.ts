import { ChannelTypes, isSnowflake } from '@guildhall/protocol';
import { hashSecret } from '../../domain/credentials.js';
import { ApiError } from '../../errors/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import type { CallLifecycle } from '../calls/index.js';
import { serializeUser } from '../users/index.js';
import { announceToEach } from './events.js';
import { assertMayGroupWith } from './policy.js';
import { MAX_GROUP_DM_RECIPIENTS } from './schemas.js';
import { recipientUsers, serializePrivateChannel } from './serialize.js';

/** The OAuth2 scope an access token needs to be added to a group DM. */
const GROUP_DM_JOIN_SCOPE = 'gdm.join';

/**
 * The user of a group DM access token: a live Bearer token of the caller's application with
 * gdm.join (50025 otherwise).
 */
export async function gdmTokenUser(
  repos: Repositories,
  principal: Principal,
  request: { token: string; nowMs: number },
): Promise<string> {
  const { token, nowMs } = request;
  const app = principal.applicationId;
  const record = app === null ? null : await repos.tokens.findByHash(hashSecret(token));
  if (
    record?.kind !== 'bearer' ||
    record.applicationId !== app ||
    !record.scopes.includes(GROUP_DM_JOIN_SCOPE) ||
    (record.expiresAt !== null && record.expiresAt <= nowMs)
  ) {
    throw new ApiError('INVALID_OAUTH2_ACCESS_TOKEN');
  }
  return record.userId;
}

/**
 * Adding and removing group DM recipients (PUT and DELETE /channels/{id}/recipients/{user_id}).
 * An application (its bot, or a Bearer token of it) changes only the group DMs it manages
 * (`application_id`), adding a user with that user's own gdm.join token; a person's own session
 * adds friends to a group DM they are in, as the client does. Only the owner removes. Nobody adds
 * across a block (50007). A DM is 50003.
 */
export function createGroupRecipientService(
  deps: ServiceDeps,
  parts: {
    /** A recipient removed from the group leaves its call (resources/calls). */
    calls: Pick<CallLifecycle, 'recipientLeaves'>;
  },
) {
  const { storage, clock } = deps;

  /**
   * The group DM, for its owner or a recipient (50001 for anyone else); for an application's
   * caller, only one the application manages (50001 otherwise: to it, the group DM is not its
   * own to change).
   */
  const loadGroup = async (principal: Principal, channelId: string) => {
    const record = isSnowflake(channelId) ? await storage.privateChannels.find(channelId) : null;
    if (record === null) throw new ApiError('UNKNOWN_CHANNEL');
    const me = principal.user.id;
    if (record.ownerId !== me && !record.recipients.some((r) => r.userId === me)) {
      throw new ApiError('MISSING_ACCESS');
    }
    if (record.channel.type !== ChannelTypes.GROUP_DM) throw new ApiError('CANNOT_EXECUTE_ON_DM');
    const manager = record.channel.applicationId;
    if (principal.kind !== 'session' && (manager === null || manager !== principal.applicationId)) {
      throw new ApiError('MISSING_ACCESS');
    }
    return record;
  };

  return {
    /** Adds the user; true when added (201), false when already in (204). */
    async add(
      principal: Principal,
      request: {
        channelId: string;
        userId: string;
        accessToken: string | null;
        nick: string | null;
      },
    ): Promise<{ added: boolean; channel: object }> {
      const record = await loadGroup(principal, request.channelId);
      const user = isSnowflake(request.userId)
        ? await storage.users.findById(request.userId)
        : null;
      if (user === null) throw new ApiError('UNKNOWN_USER');
      if (request.accessToken !== null) {
        const tokenUser = await gdmTokenUser(storage, principal, {
          token: request.accessToken,
          nowMs: clock.now(),
        });
        if (tokenUser !== user.id) throw new ApiError('INVALID_OAUTH2_ACCESS_TOKEN');
      } else if (principal.kind !== 'session') {
        throw new ApiError('INVALID_OAUTH2_ACCESS_TOKEN');
      }
      if (user.bot) throw new ApiError('INVALID_RECIPIENTS');
      await assertMayGroupWith(storage, principal, [user.id]);
      const users = await recipientUsers(storage, [record]);
      if (record.recipients.some((r) => r.userId === user.id)) {
        return { added: false, channel: serializePrivateChannel(record, users, principal.user.id) };
      }
      if (record.recipients.length >= MAX_GROUP_DM_RECIPIENTS) throw new ApiError('MAX_GROUP_DMS');
      const recipient = { userId: user.id, nick: request.nick, open: true };
      const updated = { ...record, recipients: [...record.recipients, recipient] };
      users.set(user.id, user);
      await storage.transaction(async (tx) => {
        await tx.privateChannels.addRecipient(record.channel.id, recipient);
        afterCommit(tx, {
          type: 'CHANNEL_RECIPIENT_ADD',
          guildId: null,
          channelId: record.channel.id,
          userIds: record.recipients.map((r) => r.userId),
          data: {
            channel_id: record.channel.id,
            user: serializeUser(user),
            ...(request.nick === null ? {} : { nick: request.nick }),
          },
        });
        announceToEach(tx, { type: 'CHANNEL_CREATE', record: updated, users, userIds: [user.id] });
      });
      return { added: true, channel: serializePrivateChannel(updated, users, principal.user.id) };
    },

    /** The owner removes a recipient (nothing happens when the user is not one). */
    async remove(principal: Principal, request: { channelId: string; userId: string }) {
      const record = await loadGroup(principal, request.channelId);
      if (record.ownerId !== principal.user.id) throw new ApiError('MISSING_PERMISSIONS');
      const leaving = record.recipients.find((r) => r.userId === request.userId);
      if (leaving === undefined) return;
      const users = await recipientUsers(storage, [record]);
      const user = users.get(leaving.userId);
      const rest = record.recipients.filter((r) => r.userId !== leaving.userId);
      await storage.transaction(async (tx) => {
        await parts.calls.recipientLeaves(tx, {
          record,
          userId: leaving.userId,
          nowMs: clock.now(),
        });
        await tx.privateChannels.removeRecipient(record.channel.id, leaving.userId);
        announceToEach(tx, { type: 'CHANNEL_DELETE', record, users, userIds: [leaving.userId] });
        if (user !== undefined && rest.length > 0) {
          afterCommit(tx, {
            type: 'CHANNEL_RECIPIENT_REMOVE',
            guildId: null,
            channelId: record.channel.id,
            userIds: rest.map((r) => r.userId),
            data: { channel_id: record.channel.id, user: serializeUser(user) },
          });
        }
      });
    },
  };
}

export type GroupRecipientService = ReturnType<typeof createGroupRecipientService>;
