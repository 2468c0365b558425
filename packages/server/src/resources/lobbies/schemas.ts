import { z } from 'zod';
import { Snowflake, queryInt } from '../../http/schemas.js';
import { DAY_SECONDS, HOUR_MS, DAY_MS } from '../../domain/time.js';

/** The platform's lobby limits (docs/lobbies.md#limits). */
export const LOBBY_LIMITS = {
  /** Members of one lobby. */
  maxMembers: 1000,
  /** Lobbies of one application a user may be in. */
  maxLobbiesPerUser: 100,
  /** Members one create, modify or bulk request may list. */
  maxMembersPerRequest: 25,
  /** Metadata keys of a lobby or member. */
  maxMetadataKeys: 25,
  maxMetadataValue: 1024,
  /** The keys and values of a member's (and a lobby's) metadata together, in characters. */
  maxMetadataChars: 1000,
  minIdleTimeoutSeconds: 5,
  maxIdleTimeoutSeconds: 7 * DAY_SECONDS,
  defaultIdleTimeoutSeconds: 300,
  /** A PUT /lobbies secret makes a new lobby once this old. */
  secretLifetimeMs: 30 * DAY_MS,
  maxSecretLength: 250,
  maxAdditionalName: 80,
  maxOverrideUrl: 512,
  maxMessageContent: 4000,
  /** Messages GET /lobbies/{id}/messages returns: default and most. */
  defaultMessages: 50,
  maxMessages: 200,
  /** Messages older than this are not listed. */
  messageHistoryMs: 72 * HOUR_MS,
  /** Moderation metadata of a message. */
  maxModerationKeys: 5,
  maxModerationKey: 1024,
  maxModerationValue: 2000,
  /** A lobby invite: one use, one hour. */
  inviteMaxAgeSeconds: 3600,
} as const;

/** Member flag: may link the lobby to a guild channel. */
export const LobbyMemberFlags = { CAN_LINK_LOBBY: 1 << 0 } as const;

const metadataChars = (metadata: Record<string, string>) =>
  Object.entries(metadata).reduce((sum, [k, v]) => sum + k.length + v.length, 0);

/** A lobby's metadata map: ≤25 keys, values ≤1024 (the OpenAPI document's limits). */
const Metadata = z
  .record(z.string(), z.string().max(LOBBY_LIMITS.maxMetadataValue))
  .refine((m) => Object.keys(m).length <= LOBBY_LIMITS.maxMetadataKeys, {
    message: `Must have ${String(LOBBY_LIMITS.maxMetadataKeys)} or fewer keys.`,
    params: { code: 'BASE_TYPE_MAX_LENGTH' },
  });

/** A member's metadata: the same, and ≤1000 characters of keys and values in all (docs). */
const MemberMetadata = Metadata.refine((m) => metadataChars(m) <= LOBBY_LIMITS.maxMetadataChars, {
  message: `Keys and values must be ${String(LOBBY_LIMITS.maxMetadataChars)} or fewer characters in all.`,
  params: { code: 'BASE_TYPE_MAX_LENGTH' },
});

const IdleTimeout = z
  .number()
  .int()
  .min(LOBBY_LIMITS.minIdleTimeoutSeconds)
  .max(LOBBY_LIMITS.maxIdleTimeoutSeconds);

/** Lobby flags: the only value the platform accepts is 1. */
const LobbyFlags = z.union([z.literal(0), z.literal(1)]);
/** Member flags: CanLinkLobby (1) or none. */
const MemberFlags = z.union([z.literal(0), z.literal(LobbyMemberFlags.CAN_LINK_LOBBY)]);

const OverrideUrl = z.url({ protocol: /^https?$/ }).max(LOBBY_LIMITS.maxOverrideUrl);

const AdditionalName = z.string().min(1).max(LOBBY_LIMITS.maxAdditionalName);

export const LobbyMemberInput = z.object({
  id: Snowflake,
  metadata: MemberMetadata.nullish(),
  flags: MemberFlags.nullish(),
});
export type LobbyMemberInput = z.output<typeof LobbyMemberInput>;

const Members = z.array(LobbyMemberInput).max(LOBBY_LIMITS.maxMembersPerRequest);

export const CreateLobbyBody = z.object({
  metadata: Metadata.nullish(),
  members: Members.nullish(),
  idle_timeout_seconds: IdleTimeout.nullish(),
  flags: LobbyFlags.nullish(),
  override_event_webhooks_url: OverrideUrl.nullish(),
});
export type CreateLobbyInput = z.output<typeof CreateLobbyBody>;

export const ModifyLobbyBody = CreateLobbyBody;
export type ModifyLobbyInput = z.output<typeof ModifyLobbyBody>;

export const CreateOrJoinBody = z.object({
  secret: z.string().min(1).max(LOBBY_LIMITS.maxSecretLength),
  idle_timeout_seconds: IdleTimeout.nullish(),
  lobby_metadata: Metadata.nullish(),
  member_metadata: MemberMetadata.nullish(),
  flags: LobbyFlags.nullish(),
});
export type CreateOrJoinInput = z.output<typeof CreateOrJoinBody>;

export const PutMemberBody = z.object({
  metadata: MemberMetadata.nullish(),
  flags: MemberFlags.nullish(),
  /** Omitted: kept; null: cleared. */
  additional_name: AdditionalName.nullish(),
});
export type PutMemberInput = z.output<typeof PutMemberBody>;

export const BulkMemberInput = PutMemberBody.extend({
  id: Snowflake,
  remove_member: z.boolean().nullish(),
});
export type BulkMemberInput = z.output<typeof BulkMemberInput>;

export const BulkMembersBody = z
  .array(BulkMemberInput)
  .min(1)
  .max(LOBBY_LIMITS.maxMembersPerRequest);

export const ChannelLinkBody = z.object({ channel_id: Snowflake.nullish() });

export const SendMessageBody = z.object({
  content: z
    .string()
    .min(1)
    .max(LOBBY_LIMITS.maxMessageContent)
    .refine((content) => content.trim().length > 0, {
      message: 'Cannot send an empty message.',
      params: { code: 'BASE_TYPE_REQUIRED' },
    }),
  metadata: Metadata.nullish(),
  flags: z.number().int().min(0).nullish(),
});
export type SendMessageInput = z.output<typeof SendMessageBody>;

/** PATCH /lobbies/{id}/messages/{message} (Guildhall's own): the same content rules as a send. */
export const EditMessageBody = SendMessageBody.pick({ content: true, metadata: true });
export type EditMessageInput = z.output<typeof EditMessageBody>;

export const ListMessagesQuery = z.object({
  limit: queryInt(1, LOBBY_LIMITS.maxMessages).optional(),
});

export const ModerationBody = z
  .record(
    z.string().max(LOBBY_LIMITS.maxModerationKey),
    z.string().max(LOBBY_LIMITS.maxModerationValue),
  )
  .refine((m) => Object.keys(m).length <= LOBBY_LIMITS.maxModerationKeys, {
    message: `Must have ${String(LOBBY_LIMITS.maxModerationKeys)} or fewer keys.`,
    params: { code: 'BASE_TYPE_MAX_LENGTH' },
  });

export const LobbyParams = z.object({ lobby_id: z.string() });
export const LobbyMemberParams = z.object({ lobby_id: z.string(), user_id: z.string() });
export const LobbyMessageParams = z.object({ lobby_id: z.string(), message_id: z.string() });
