import { ChannelTypes } from '@guildhall/protocol';
import type { PrivateChannelRecord, Repositories, UserRecord } from '../../storage/index.js';
import { serializeUser } from '../users/index.js';

/** The users of these channels' recipients, by id, in one query. */
export async function recipientUsers(
  repos: Repositories,
  channels: readonly PrivateChannelRecord[],
): Promise<Map<string, UserRecord>> {
  const ids = new Set(channels.flatMap((c) => c.recipients.map((r) => r.userId)));
  const users = ids.size === 0 ? [] : await repos.users.findByIds([...ids]);
  return new Map(users.map((user) => [user.id, user]));
}

/**
 * A DM (PrivateChannelResponse) or group DM (PrivateGroupChannelResponse) as `viewerId` sees it:
 * `recipients` are the other users. A game DM carries its `application_id`; a group DM an
 * application made is `managed`.
 */
export function serializePrivateChannel(
  record: PrivateChannelRecord,
  users: ReadonlyMap<string, UserRecord>,
  viewerId: string | null,
) {
  const { channel } = record;
  const recipients = record.recipients.flatMap((r) => {
    const user = r.userId === viewerId ? undefined : users.get(r.userId);
    return user === undefined ? [] : [serializeUser(user)];
  });
  const base = {
    id: channel.id,
    type: channel.type,
    last_message_id: channel.lastMessageId,
    flags: channel.flags,
    recipients,
    ...(channel.applicationId === null ? {} : { application_id: channel.applicationId }),
  };
  if (channel.type !== ChannelTypes.GROUP_DM) return base;
  return {
    ...base,
    name: channel.name,
    icon: record.icon,
    owner_id: record.ownerId ?? '',
    managed: channel.applicationId !== null,
    ...(Object.keys(nicksOf(record)).length === 0 ? {} : { nicks: nicksOf(record) }),
  };
}

function nicksOf(record: PrivateChannelRecord): Record<string, string> {
  const nicks: Record<string, string> = {};
  for (const r of record.recipients) if (r.nick !== null) nicks[r.userId] = r.nick;
  return nicks;
}

export type PrivateChannelWire = ReturnType<typeof serializePrivateChannel>;
