import { MessageTypes } from '@guildhall/protocol';
import type { APIAttachment, APIMessage, APIReaction } from 'discord-api-types/v10';
import {
  canReadMessageContent,
  withoutMessageContent,
  type ContentReader,
} from '../../domain/messageContent.js';
import type {
  AttachmentRecord,
  MessageRecord,
  ReactionSummary,
  Repositories,
  UserRecord,
  WebhookAuthorRecord,
} from '../../storage/index.js';
import { mapComponentMedia, resolveComponentMedia } from '../components/index.js';
import type { serializePartialMember } from '../members/index.js';
import { serializeUser, type UserWire } from '../users/index.js';
import type { WireShape } from '../wireShape.js';
import { EMPTY_TALLY, serializePoll, type PollWire } from './polls.js';
import type { AttachmentSigner } from './signedUrls.js';

const iso = (ms: number) => new Date(ms).toISOString();

/** What attachment URLs are made of: the public URL (no /api) and the deployment's signer. */
export interface AttachmentLinks {
  baseUrl: string;
  signer: AttachmentSigner;
}

/** Where an attachment is served: /attachments/{channel_id}/{attachment_id}/{filename}. */
export function attachmentPath(attachment: AttachmentRecord): string {
  return `/attachments/${attachment.channelId}/${attachment.id}/${encodeURIComponent(
    attachment.filename,
  )}`;
}

/** An attachment's URL with a fresh signature (signedUrls.ts). */
export function attachmentUrl(links: AttachmentLinks, attachment: AttachmentRecord): string {
  return `${links.baseUrl}${links.signer.sign(attachmentPath(attachment))}`;
}

export function serializeAttachment(attachment: AttachmentRecord, links: AttachmentLinks) {
  const url = attachmentUrl(links, attachment);
  return {
    id: attachment.id,
    filename: attachment.filename,
    size: attachment.size,
    url,
    proxy_url: url,
    flags: attachment.flags,
    ...(attachment.contentType === null ? {} : { content_type: attachment.contentType }),
    ...(attachment.description === null ? {} : { description: attachment.description }),
    ...(attachment.title === null ? {} : { title: attachment.title }),
  } satisfies WireShape<APIAttachment>;
}

function serializeReaction(summary: ReactionSummary) {
  return {
    emoji: {
      id: summary.emojiId,
      name: summary.emojiName,
      ...(summary.emojiId === null ? {} : { animated: summary.animated }),
    },
    count: summary.normal + summary.burst,
    count_details: { burst: summary.burst, normal: summary.normal },
    me: summary.me,
    me_burst: summary.meBurst,
    burst_colors: [] as string[],
  } satisfies WireShape<APIReaction>;
}

/** What serializing messages needs besides the records; {@link loadMessageContext} builds it. */
export interface MessageContext {
  /** What attachment URLs are made of. */
  links: AttachmentLinks;
  users: ReadonlyMap<string, UserRecord>;
  /** Reaction summaries by message id (absent: no reactions). */
  reactions: ReadonlyMap<string, readonly ReactionSummary[]>;
  /** Messages replies point at, by id (absent: deleted). */
  referenced: ReadonlyMap<string, MessageRecord>;
  /** The MESSAGE_CONTENT rule's reader; null for people (who read everything). */
  reader: ContentReader | null;
  /** The applications activity invites name, by id (absent: none loaded). */
  applications?: ReadonlyMap<string, MessageApplicationWire>;
  /** The polls of these messages as the viewer sees them, by message id (absent: none). */
  polls?: ReadonlyMap<string, PollWire>;
}

/** The partial application an activity invite carries. */
export interface MessageApplicationWire {
  id: string;
  name: string;
  icon: string | null;
  /** The application's cover image: what the invite shows when its activity names none. */
  cover_image?: string;
  description: string;
}

/** An activity invite's `activity` and `application` fields, when the message is one. */
function activityFields(message: MessageRecord, context: MessageContext) {
  if (message.activity == null) return {};
  const application =
    message.applicationId === null ? undefined : context.applications?.get(message.applicationId);
  return {
    activity: { type: message.activity.type, party_id: message.activity.partyId },
    ...(application === undefined ? {} : { application }),
  };
}

function userWire(context: MessageContext, userId: string): UserWire {
  const user = context.users.get(userId);
  // An author whose account is gone: the platform shows a deleted user.
  return user === undefined ? deletedUserWire(userId) : serializeUser(user);
}

function deletedUserWire(userId: string): UserWire {
  return {
    id: userId,
    username: 'Deleted User',
    discriminator: '0',
    global_name: null,
    avatar: null,
    banner: null,
    accent_color: null,
    public_flags: 0,
    flags: 0,
    avatar_decoration_data: null,
    collectibles: null,
    primary_guild: null,
  };
}

/** A webhook message's author: the webhook's id with the name and avatar it was sent with. */
function webhookAuthorWire(webhookId: string, author: WebhookAuthorRecord): UserWire {
  return {
    ...deletedUserWire(webhookId),
    username: author.username,
    discriminator: '0000',
    avatar: author.avatar,
    bot: true,
  };
}

/**
 * The message as sent, checked against discord-api-types' APIMessage. Embeds, components,
 * interaction metadata and forwarded snapshots are stored as wire JSON built where they are
 * validated and passed through, so they are checked
 * where they are validated, not here; `referenced_message` has this same shape.
 */
type MessageWireShape = Omit<
  WireShape<APIMessage>,
  | 'embeds'
  | 'components'
  | 'message_snapshots'
  | 'referenced_message'
  | 'interaction_metadata'
  | 'interaction'
  | 'poll'
> & {
  /** Checked by its serializer (polls.ts). */
  poll?: PollWire;
  embeds: unknown[];
  components: unknown[];
  interaction_metadata?: Record<string, unknown>;
  interaction?: Record<string, unknown>;
  message_snapshots?: unknown[];
  referenced_message?: MessageWireShape | null;
};

function baseMessage(message: MessageRecord, context: MessageContext) {
  return {
    type: message.type,
    content: message.content,
    mentions: message.mentionUserIds.map((userId) => userWire(context, userId)),
    mention_roles: message.mentionRoleIds,
    attachments: message.attachments.map((a) => serializeAttachment(a, context.links)),
    embeds: message.embeds,
    timestamp: iso(message.createdAt),
    edited_timestamp: message.editedAt === null ? null : iso(message.editedAt),
    flags: message.flags,
    components: resolveComponentMedia(message.components ?? [], message.attachments, (a) =>
      attachmentUrl(context.links, a),
    ),
  };
}

/** A forward's frozen snapshot (MessageSnapshotResponse) of a message, at forward time. */
export function snapshotOf(message: MessageRecord, context: MessageContext) {
  return { message: baseMessage(message, context) };
}

function readable(message: MessageRecord, context: MessageContext): boolean {
  return (
    context.reader === null ||
    canReadMessageContent(context.reader, {
      authorId: message.authorId,
      inDirectChannel: message.guildId === null,
      mentionedUserIds: message.mentionUserIds,
    })
  );
}

const ATTACHMENT_PATH = /\/attachments\/\d+\/\d+\/[^/?#]+/;

/**
 * A forward's snapshots with their attachment URLs signed afresh, in its attachments and its
 * components' media: the snapshot was frozen with the links of forward time, which expire.
 */
function resignSnapshots(snapshots: readonly unknown[], links: AttachmentLinks): unknown[] {
  const resign = (item: Record<string, unknown>) => {
    const path = ATTACHMENT_PATH.exec(String(item['url']))?.[0];
    if (path === undefined) return item;
    const url = `${links.baseUrl}${links.signer.sign(path)}`;
    return { ...item, url, proxy_url: url };
  };
  return snapshots.map((snapshot) => {
    const message = (snapshot as { message?: { attachments?: unknown; components?: unknown } })
      .message;
    if (message === undefined || !Array.isArray(message.attachments)) return snapshot;
    const attachments = (message.attachments as Record<string, unknown>[]).map(resign);
    const components = Array.isArray(message.components)
      ? mapComponentMedia(message.components, resign)
      : message.components;
    return { ...(snapshot as object), message: { ...message, attachments, components } };
  });
}

function pollField(messageId: string, context: MessageContext): { poll?: PollWire } {
  const poll = context.polls?.get(messageId);
  return poll === undefined ? {} : { poll };
}

/** One message without its referenced message (the shape of referenced_message itself). */
function serializeOne(message: MessageRecord, context: MessageContext) {
  const wire = {
    id: message.id,
    channel_id: message.channelId,
    author:
      message.webhookAuthor == null
        ? userWire(context, message.authorId)
        : webhookAuthorWire(message.authorId, message.webhookAuthor),
    ...baseMessage(message, context),
    pinned: message.pinnedAt !== null,
    mention_everyone: message.mentionEveryone,
    tts: message.tts,
    ...(message.applicationId === null ? {} : { application_id: message.applicationId }),
    ...(message.webhookId === null ? {} : { webhook_id: message.webhookId }),
    ...(message.interactionMetadata == null
      ? {}
      : { interaction_metadata: message.interactionMetadata }),
    ...(message.interaction == null ? {} : { interaction: message.interaction }),
    ...activityFields(message, context),
    ...(message.metadata == null ? {} : { metadata: message.metadata }),
    ...(message.call == null
      ? {}
      : {
          call: {
            participants: message.call.participants,
            ended_timestamp: message.call.endedAt === null ? null : iso(message.call.endedAt),
          },
        }),
    ...(message.reference === null
      ? {}
      : {
          message_reference: {
            type: message.reference.type,
            channel_id: message.reference.channelId,
            ...(message.reference.messageId === null
              ? {}
              : { message_id: message.reference.messageId }),
            ...(message.reference.guildId === null ? {} : { guild_id: message.reference.guildId }),
          },
        }),
    ...(message.snapshots === null
      ? {}
      : { message_snapshots: resignSnapshots(message.snapshots, context.links) }),
    ...(context.reactions.has(message.id)
      ? { reactions: (context.reactions.get(message.id) ?? []).map(serializeReaction) }
      : {}),
    ...pollField(message.id, context),
  } satisfies MessageWireShape;
  if (readable(message, context)) return wire;
  const hidden = withoutMessageContent(wire);
  return message.snapshots === null
    ? hidden
    : {
        ...hidden,
        message_snapshots: (
          message.snapshots as { message: Parameters<typeof withoutMessageContent>[0] }[]
        ).map((snapshot) => ({ message: withoutMessageContent(snapshot.message) })),
      };
}

/** A message on the wire (MessageResponse), with referenced_message for replies. */
export function serializeMessage(message: MessageRecord, context: MessageContext) {
  const wire = serializeOne(message, context);
  if (message.type !== MessageTypes.REPLY) return wire;
  const referencedId = message.reference?.messageId ?? null;
  const referenced = referencedId === null ? undefined : context.referenced.get(referencedId);
  return {
    ...wire,
    referenced_message: referenced === undefined ? null : serializeOne(referenced, context),
  } satisfies MessageWireShape;
}

export type MessageWire = ReturnType<typeof serializeMessage>;

/**
 * Loads what serializing these messages needs in a constant number of queries: the messages
 * replies point at, every author and mentioned user, and the reactions (seen by `viewerId`).
 */
export async function loadMessageContext(
  repos: Repositories,
  messages: readonly MessageRecord[],
  options: {
    links: AttachmentLinks;
    viewerId: string;
    reader: ContentReader | null;
    /** Users already at hand (the caller, say), to spare a lookup. */
    knownUsers?: readonly UserRecord[];
    /** False to skip the reactions query (a message just made has none). */
    reactions?: boolean;
  },
): Promise<MessageContext> {
  const referencedIds = messages.flatMap((m) =>
    m.type === MessageTypes.REPLY && m.reference?.messageId != null ? [m.reference.messageId] : [],
  );
  const [referencedList, summaries, polls] = await Promise.all([
    referencedIds.length === 0 ? [] : repos.messages.findByIds(referencedIds),
    options.reactions === false
      ? []
      : repos.reactions.summarize(
          messages.map((m) => m.id),
          options.viewerId,
        ),
    options.reactions === false
      ? new Map<string, PollWire>()
      : loadPolls(repos, messages, options.viewerId),
  ]);
  const users = new Map<string, UserRecord>();
  for (const user of options.knownUsers ?? []) users.set(user.id, user);
  const wanted = new Set<string>();
  for (const message of [...messages, ...referencedList]) {
    wanted.add(message.authorId);
    for (const userId of message.mentionUserIds) wanted.add(userId);
  }
  for (const userId of users.keys()) wanted.delete(userId);
  if (wanted.size > 0) {
    for (const user of await repos.users.findByIds([...wanted])) users.set(user.id, user);
  }
  const reactions = new Map<string, ReactionSummary[]>();
  for (const summary of summaries) {
    const list = reactions.get(summary.messageId) ?? [];
    list.push(summary);
    reactions.set(summary.messageId, list);
  }
  const applicationIds = [
    ...new Set(
      messages.flatMap((m) =>
        m.activity != null && m.applicationId !== null ? [m.applicationId] : [],
      ),
    ),
  ];
  const applications = new Map<string, MessageApplicationWire>();
  for (const applicationId of applicationIds) {
    const found = await repos.applications.findById(applicationId);
    if (found !== null) {
      applications.set(found.id, {
        id: found.id,
        name: found.name,
        icon: found.icon,
        ...(found.coverImage === null ? {} : { cover_image: found.coverImage }),
        description: found.description,
      });
    }
  }
  return {
    links: options.links,
    users,
    reactions,
    referenced: new Map(referencedList.map((m) => [m.id, m])),
    reader: options.reader,
    applications,
    polls,
  };
}

/** The polls of these messages with their tallies as `viewerId` sees them (me_voted). */
export async function loadPolls(
  repos: Repositories,
  messages: readonly MessageRecord[],
  viewerId: string | null,
): Promise<Map<string, PollWire>> {
  const found = await repos.polls.findMany(messages.map((m) => m.id));
  const wires = new Map<string, PollWire>();
  if (found.length === 0) return wires;
  const tallies = await repos.polls.tallies(
    found.map((p) => p.messageId),
    viewerId,
  );
  for (const poll of found) {
    wires.set(poll.messageId, serializePoll(poll, tallies.get(poll.messageId) ?? EMPTY_TALLY));
  }
  return wires;
}

/**
 * MESSAGE_CREATE and MESSAGE_UPDATE: the message as its reader sees it, with its guild's id in a
 * guild and, on a create by a member, the author's partial member.
 */
export type MessageDispatchPayload = MessageWire & {
  guild_id?: string;
  member?: ReturnType<typeof serializePartialMember>;
};

/** MESSAGE_DELETE: the message's id and where it was. */
export interface MessageDeletePayload {
  id: string;
  channel_id: string;
  guild_id?: string;
}

/** MESSAGE_DELETE_BULK: the ids of the messages deleted together in one channel. */
export interface MessageDeleteBulkPayload {
  ids: readonly string[];
  channel_id: string;
  guild_id?: string;
}

/** CHANNEL_PINS_UPDATE: when the channel's newest pin was made, null when none is left. */
export interface ChannelPinsUpdatePayload {
  channel_id: string;
  guild_id?: string;
  last_pin_timestamp: string | null;
}

/** TYPING_START: who started typing where, with their partial member in a guild. */
export interface TypingStartPayload {
  channel_id: string;
  guild_id?: string;
  user_id: string;
  timestamp: number;
  member?: ReturnType<typeof serializePartialMember>;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    CHANNEL_PINS_UPDATE: ChannelPinsUpdatePayload;
    TYPING_START: TypingStartPayload;
    MESSAGE_CREATE: MessageDispatchPayload;
    MESSAGE_UPDATE: MessageDispatchPayload;
    MESSAGE_DELETE: MessageDeletePayload;
    MESSAGE_DELETE_BULK: MessageDeleteBulkPayload;
  }
}
