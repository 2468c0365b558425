import { ChannelTypes } from '@guildhall/protocol';
import { afterCommit } from '../../events/afterCommit.js';
import type {
  MessageRecord,
  PrivateChannelRecord,
  Repositories,
  UserRecord,
} from '../../storage/index.js';
import type { SocialWebhookEventType, SocialWebhookEvents } from '../deps.js';
import { loadMessageContext, serializeMessage, type AttachmentLinks } from '../messages/index.js';
import { provisionalApps } from './policy.js';
import type { ChannelWire } from '../channels/index.js';
import type { UserWire } from '../users/index.js';
import { recipientUsers, serializePrivateChannel } from './serialize.js';

/**
 * A channel event carries a guild channel (channels/dispatch.ts) or a private channel as one of
 * its users sees it; registered here, where both shapes are known.
 */
type ChannelPayload = ChannelWire | ReturnType<typeof serializePrivateChannel>;

/** CHANNEL_RECIPIENT_ADD and _REMOVE: a user joined or left a group DM (the nick it was given). */
export interface ChannelRecipientPayload {
  channel_id: string;
  user: UserWire;
  nick?: string;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    CHANNEL_RECIPIENT_ADD: ChannelRecipientPayload;
    CHANNEL_RECIPIENT_REMOVE: ChannelRecipientPayload;
    CHANNEL_CREATE: ChannelPayload;
    CHANNEL_UPDATE: ChannelPayload;
    CHANNEL_DELETE: ChannelPayload;
  }
}

/**
 * The scope of a private channel's dispatches: a game DM's (application_id set) reach only its
 * game's SDK sessions and the users' own clients (gateway/routing.ts); any other DM is not scoped.
 */
export function gameScope(record: { channel: { applicationId: string | null } }): {
  applicationId?: string;
} {
  const { applicationId } = record.channel;
  return applicationId === null ? {} : { applicationId };
}

/** Announces CHANNEL_CREATE (or another channel event) of a private channel to each user, as each sees it. */
export function announceToEach(
  tx: Repositories,
  request: {
    type: 'CHANNEL_CREATE' | 'CHANNEL_DELETE';
    record: PrivateChannelRecord;
    users: ReadonlyMap<string, UserRecord>;
    userIds: readonly string[];
  },
): void {
  for (const userId of request.userIds) {
    afterCommit(tx, {
      type: request.type,
      guildId: null,
      channelId: request.record.channel.id,
      userIds: [userId],
      ...gameScope(request.record),
      data: serializePrivateChannel(request.record, request.users, userId),
    });
  }
}

/**
 * The applications told of a DM message by webhook: the game the DM belongs to, the application
 * whose SDK token sent it, and the games in which a recipient is a provisional account.
 */
async function gameApplications(
  tx: Repositories,
  record: PrivateChannelRecord,
  message: MessageRecord,
): Promise<string[]> {
  const apps = new Set<string>();
  if (record.channel.applicationId !== null) apps.add(record.channel.applicationId);
  if (message.applicationId !== null) apps.add(message.applicationId);
  const provisional = await Promise.all(
    record.recipients.map(async (r) => ({
      userId: r.userId,
      apps: await provisionalApps(tx, r.userId),
    })),
  );
  for (const entry of provisional) for (const app of entry.apps) apps.add(app);
  return [...apps];
}

/**
 * Puts GAME_DIRECT_MESSAGE_CREATE/UPDATE/DELETE in the outbox for each game taking part, inside
 * the message's transaction. The data is the message with its `channel`, or the SDK-DM object
 * when every recipient is a provisional account (docs/social-dms.md#webhook-events).
 */
export async function enqueueGameDmEvents(
  tx: Repositories,
  deps: { webhookEvents: SocialWebhookEvents; links: () => AttachmentLinks },
  request: {
    type: SocialWebhookEventType;
    record: PrivateChannelRecord;
    message: MessageRecord;
  },
): Promise<void> {
  const { webhookEvents } = deps;
  const { record, message } = request;
  if (record.channel.type !== ChannelTypes.DM) return;
  const apps = await gameApplications(tx, record, message);
  if (apps.length === 0) return;
  const [users, context, provisional] = await Promise.all([
    recipientUsers(tx, [record]),
    loadMessageContext(tx, [message], {
      links: deps.links(),
      viewerId: message.authorId,
      reader: null,
      reactions: false,
    }),
    Promise.all(record.recipients.map((r) => provisionalApps(tx, r.userId))),
  ]);
  const channel = serializePrivateChannel(record, users, null);
  const wire = serializeMessage(message, context);
  const allProvisional = provisional.every((list) => list.length > 0);
  const data: Record<string, unknown> = allProvisional
    ? {
        id: wire.id,
        type: wire.type,
        content: wire.content,
        author: wire.author,
        flags: wire.flags,
        application_id: message.applicationId ?? record.channel.applicationId,
        channel,
        ...('activity' in wire ? { activity: wire.activity } : {}),
        ...('application' in wire ? { application: wire.application } : {}),
      }
    : { ...wire, channel };
  for (const applicationId of apps) {
    await webhookEvents.enqueue(tx, { applicationId, type: request.type, data });
  }
}
