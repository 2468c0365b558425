import { ChannelTypes, isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { parseInput } from '../../http/validate.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import { dmKey, type PrivateChannelRecord, type Repositories } from '../../storage/index.js';
import type { CallLifecycle } from '../calls/index.js';
import type { ServiceDeps } from '../deps.js';
import { serializeUser } from '../users/index.js';
import { announceToEach } from './events.js';
import { DM_WRITE_SCOPE, dmApplication, requireDmAccess, requireScope } from './policy.js';
import { createPrivateChannelOpening } from './open.js';
import { ModifyGroupDmBody, type CreatePrivateChannelInput } from './schemas.js';
import { recipientUsers, serializePrivateChannel, type PrivateChannelWire } from './serialize.js';

/**
 * DMs and group DMs: open (get or create), list, get, close or leave. Messages in them go through
 * the message service, with the rules of rules.ts.
 */
export function createPrivateChannelService(
  deps: ServiceDeps,
  parts: {
    /** A recipient leaving a group DM leaves its call (resources/calls). */
    calls: Pick<CallLifecycle, 'recipientLeaves'>;
  },
) {
  const { storage, clock } = deps;
  const { openDm, createGroup, tokenUsers } = createPrivateChannelOpening(deps);

  const view = async (repos: Repositories, record: PrivateChannelRecord, viewerId: string) =>
    serializePrivateChannel(record, await recipientUsers(repos, [record]), viewerId);

  /** A private channel the caller is in; null when the id is no private channel. */
  const findOwn = async (principal: Principal, channelId: string) => {
    const record = isSnowflake(channelId) ? await storage.privateChannels.find(channelId) : null;
    if (record === null) return null;
    if (!record.recipients.some((r) => r.userId === principal.user.id)) {
      throw new ApiError('MISSING_ACCESS');
    }
    return record;
  };

  return {
    /** POST /users/@me/channels: a DM with `recipient_id`, or a group DM. */
    async create(
      principal: Principal,
      input: CreatePrivateChannelInput,
    ): Promise<PrivateChannelWire> {
      if (input.recipient_id != null) {
        requireScope(principal, DM_WRITE_SCOPE);
        const recipient = await storage.users.findById(input.recipient_id);
        if (recipient === null) throw new ApiError('UNKNOWN_USER');
        if (recipient.id === principal.user.id) throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
        const applicationId = await dmApplication(storage, principal, recipient.id);
        const record = await openDm(principal, recipient, applicationId);
        return view(storage, record, principal.user.id);
      }
      if (input.access_tokens != null) {
        return createGroup(principal, {
          userIds: await tokenUsers(principal, input.access_tokens),
          nicks: input.nicks ?? {},
          applicationId: principal.applicationId,
        });
      }
      if (input.recipients != null && principal.kind === 'session') {
        return createGroup(principal, {
          userIds: input.recipients,
          nicks: input.nicks ?? {},
          applicationId: null,
        });
      }
      throw new ApiError('INVALID_RECIPIENTS');
    },

    /** The DM of the caller and a user, made when missing (the SDK's send path). */
    async openWith(principal: Principal, userId: string): Promise<PrivateChannelRecord> {
      const recipient = isSnowflake(userId) ? await storage.users.findById(userId) : null;
      if (recipient === null) throw new ApiError('UNKNOWN_USER');
      if (recipient.id === principal.user.id) throw new ApiError('CANNOT_SEND_MESSAGES_TO_USER');
      return openDm(principal, recipient, await dmApplication(storage, principal, recipient.id));
    },

    /** The DM of the caller and a user as it stands, or null (the SDK's read path). */
    async findWith(principal: Principal, userId: string): Promise<PrivateChannelRecord | null> {
      if (!isSnowflake(userId)) throw new ApiError('UNKNOWN_USER');
      const app = principal.kind === 'bearer' ? principal.applicationId : null;
      const scoped =
        app === null
          ? null
          : await storage.privateChannels.findByDmKey(dmKey(principal.user.id, userId, app));
      return scoped ?? storage.privateChannels.findByDmKey(dmKey(principal.user.id, userId, null));
    },

    /** GET /users/@me/channels: the caller's open DMs and group DMs. */
    async list(principal: Principal): Promise<PrivateChannelWire[]> {
      requireDmAccess(principal, 'dmChannels');
      const records = await storage.privateChannels.listOpenFor(principal.user.id);
      const users = await recipientUsers(storage, records);
      return records.map((record) => serializePrivateChannel(record, users, principal.user.id));
    },

    /** GET /channels/{id} of a private channel; null when the id is none. */
    async get(principal: Principal, channelId: string): Promise<PrivateChannelWire | null> {
      const record = await findOwn(principal, channelId);
      return record === null ? null : view(storage, record, principal.user.id);
    },

    /**
     * PATCH /channels/{id} of a private channel: a group DM's recipients rename it (CHANNEL_UPDATE
     * to each); a DM has nothing to change (50035). Null when the id is no private channel.
     */
    async modify(
      principal: Principal,
      channelId: string,
      body: unknown,
    ): Promise<PrivateChannelWire | null> {
      const record = await findOwn(principal, channelId);
      if (record === null) return null;
      if (record.channel.type !== ChannelTypes.GROUP_DM) {
        throw invalidField(['name'], 'BASE_TYPE_INVALID', 'A DM has no name to change.');
      }
      const input = parseInput(ModifyGroupDmBody, body);
      const name = input.name === undefined ? record.channel.name : (input.name?.trim() ?? null);
      const updated = {
        ...record,
        channel: { ...record.channel, name: name === '' ? null : name },
      };
      const users = await recipientUsers(storage, [record]);
      await storage.transaction(async (tx) => {
        await tx.channels.update(record.channel.id, { name: updated.channel.name });
        for (const r of record.recipients) {
          afterCommit(tx, {
            type: 'CHANNEL_UPDATE',
            guildId: null,
            channelId: record.channel.id,
            userIds: [r.userId],
            data: serializePrivateChannel(updated, users, r.userId),
          });
        }
      });
      return serializePrivateChannel(updated, users, principal.user.id);
    },

    /**
     * DELETE /channels/{id} of a private channel: closes a DM (it reopens with the next message)
     * or leaves a group DM (its ownership passes on; the last to leave deletes it). Answers the
     * channel; null when the id is no private channel.
     */
    async close(principal: Principal, channelId: string): Promise<PrivateChannelWire | null> {
      const record = await findOwn(principal, channelId);
      if (record === null) return null;
      const me = principal.user.id;
      const users = await recipientUsers(storage, [record]);
      const wire = serializePrivateChannel(record, users, me);
      await storage.transaction(async (tx) => {
        if (record.channel.type === ChannelTypes.DM) {
          await tx.privateChannels.setOpen(record.channel.id, [me], false);
        } else {
          await parts.calls.recipientLeaves(tx, { record, userId: me, nowMs: clock.now() });
          await tx.privateChannels.removeRecipient(record.channel.id, me);
          const rest = record.recipients.filter((r) => r.userId !== me);
          const next = rest[0];
          if (next === undefined) {
            await tx.channels.delete(record.channel.id);
          } else {
            if (record.ownerId === me)
              await tx.privateChannels.setOwner(record.channel.id, next.userId);
            afterCommit(tx, {
              type: 'CHANNEL_RECIPIENT_REMOVE',
              guildId: null,
              channelId: record.channel.id,
              userIds: rest.map((r) => r.userId),
              data: { channel_id: record.channel.id, user: serializeUser(principal.user) },
            });
          }
        }
        announceToEach(tx, { type: 'CHANNEL_DELETE', record, users, userIds: [me] });
      });
      return wire;
    },
  };
}

export type PrivateChannelService = ReturnType<typeof createPrivateChannelService>;
