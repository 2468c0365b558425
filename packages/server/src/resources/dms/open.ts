/**
 * Opening private channels: the DM of two people (found, reopened for the caller, or made) and a
 * new group DM, each announced as CHANNEL_CREATE to those who see it.
 */
import { ChannelTypes } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { dmKey, type PrivateChannelRecord, type UserRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { announceToEach } from './events.js';
import { gdmTokenUser } from './groups.js';
import { assertMayGroupWith } from './policy.js';
import { MAX_GROUP_DM_RECIPIENTS } from './schemas.js';
import { recipientUsers, serializePrivateChannel } from './serialize.js';

export function createPrivateChannelOpening(deps: Pick<ServiceDeps, 'storage' | 'clock' | 'ids'>) {
  const { storage, clock, ids } = deps;

  /** A new DM or group DM's channel row: no guild, name, topic or limits of its own. */
  const newPrivateChannel = (
    type: typeof ChannelTypes.DM | typeof ChannelTypes.GROUP_DM,
    applicationId: string | null,
  ) => ({
    id: ids(),
    guildId: null,
    type,
    name: null,
    position: 0,
    parentId: null,
    topic: null,
    nsfw: false,
    rateLimitPerUser: 0,
    bitrate: null,
    userLimit: null,
    flags: 0,
    lastMessageId: null,
    createdAt: clock.now(),
    applicationId,
  });

  /** The DM of the caller and the user (scoped to `applicationId`), made when missing. */
  const openDm = async (
    principal: Principal,
    recipient: UserRecord,
    applicationId: string | null,
  ): Promise<PrivateChannelRecord> => {
    const me = principal.user.id;
    const key = dmKey(me, recipient.id, applicationId);
    return storage.transaction(async (tx) => {
      const existing = await tx.privateChannels.findByDmKey(key);
      if (existing !== null) {
        const mine = existing.recipients.find((r) => r.userId === me);
        if (mine !== undefined && !mine.open) {
          await tx.privateChannels.setOpen(existing.channel.id, [me], true);
          const opened = {
            ...existing,
            recipients: existing.recipients.map((r) =>
              r.userId === me ? { ...r, open: true } : r,
            ),
          };
          announceToEach(tx, {
            type: 'CHANNEL_CREATE',
            record: opened,
            users: await recipientUsers(tx, [opened]),
            userIds: [me],
          });
          return opened;
        }
        return existing;
      }
      const channel = newPrivateChannel(ChannelTypes.DM, applicationId);
      // The recipient sees the DM once its first message arrives (CHANNEL_CREATE then).
      const recipients = [
        { userId: me, nick: null, open: true },
        { userId: recipient.id, nick: null, open: false },
      ];
      const created = await tx.privateChannels.create({
        channel,
        ownerId: null,
        icon: null,
        dmKey: key,
        recipients,
      });
      if (!created) {
        const raced = await tx.privateChannels.findByDmKey(key);
        if (raced === null) throw new ApiError('UNKNOWN_CHANNEL');
        return raced;
      }
      const record = { channel, ownerId: null, icon: null, recipients };
      announceToEach(tx, {
        type: 'CHANNEL_CREATE',
        record,
        users: new Map([
          [me, principal.user],
          [recipient.id, recipient],
        ]),
        userIds: [me],
      });
      return record;
    });
  };

  /** The users of group DM access tokens: bearer tokens of the caller's app with gdm.join. */
  const tokenUsers = async (principal: Principal, tokens: readonly string[]) => {
    const userIds: string[] = [];
    for (const token of tokens)
      userIds.push(await gdmTokenUser(storage, principal, { token, nowMs: clock.now() }));
    return userIds;
  };

  /**
   * A group DM of the caller (unless a bot) and the users: managed by `applicationId` (the
   * caller's application, when made from gdm.join tokens) or by nobody (a person's own). Refused
   * across a block, and from a session with someone not a friend (assertMayGroupWith).
   */
  const createGroup = async (
    principal: Principal,
    input: {
      userIds: readonly string[];
      nicks: Readonly<Record<string, string | null>>;
      applicationId: string | null;
    },
  ) => {
    const me = principal.user.id;
    const members = [...new Set([...(principal.user.bot ? [] : [me]), ...input.userIds])];
    if (members.length > MAX_GROUP_DM_RECIPIENTS) throw new ApiError('MAX_GROUP_DMS');
    const users = await storage.users.findByIds(members);
    if (users.length !== members.length || users.some((u) => u.bot && u.id !== me)) {
      throw new ApiError('INVALID_RECIPIENTS');
    }
    await assertMayGroupWith(storage, principal, members);
    const channel = newPrivateChannel(ChannelTypes.GROUP_DM, input.applicationId);
    const recipients = members.map((userId) => ({
      userId,
      nick: input.nicks[userId] ?? null,
      open: true,
    }));
    const record = { channel, ownerId: me, icon: null, recipients };
    const byId = new Map(users.map((u) => [u.id, u]));
    await storage.transaction(async (tx) => {
      await tx.privateChannels.create({
        channel,
        ownerId: me,
        icon: null,
        dmKey: null,
        recipients,
      });
      announceToEach(tx, { type: 'CHANNEL_CREATE', record, users: byId, userIds: members });
    });
    return serializePrivateChannel(record, byId, me);
  };

  return { openDm, createGroup, tokenUsers };
}
