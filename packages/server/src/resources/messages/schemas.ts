import { z } from 'zod';
import { IsoTimestamp, Snowflake, queryInt } from '../../http/schemas.js';
import { charCount } from '../../domain/text.js';
import { componentsInput } from '../components/index.js';
import { PollCreateBody } from './polls.js';

/** The platform's message limits. */
export const MAX_CONTENT_LENGTH = 2000;
export const MAX_EMBEDS = 10;
export const MAX_EMBED_TOTAL = 6000;
export const MAX_ATTACHMENTS = 10;
export const MAX_NONCE_LENGTH = 25;

function text(max: number) {
  return z.string().refine((value) => charCount(value) <= max, {
    message: `Must be ${String(max)} or fewer in length.`,
    params: { code: 'BASE_TYPE_MAX_LENGTH' },
  });
}

const Url = z
  .string()
  .max(2048)
  .refine((value) => /^(https?|attachment):\/\/\S+$/i.test(value), {
    message: 'Not a well formed URL.',
    params: { code: 'URL_TYPE_INVALID_URL' },
  });

const EmbedMedia = z.object({ url: Url });

export const Embed = z.object({
  title: text(256).optional(),
  type: z.literal('rich').optional(),
  description: text(4096).optional(),
  url: Url.optional(),
  timestamp: z
    .string()
    .refine((value) => !Number.isNaN(Date.parse(value)), {
      message: 'Could not parse timestamp. Should be ISO8601.',
      params: { code: 'DATE_TYPE_PARSE' },
    })
    .transform((value) => new Date(value).toISOString())
    .optional(),
  color: z.number().int().min(0).max(0xffffff).nullable().optional(),
  footer: z.object({ text: text(2048), icon_url: Url.optional() }).optional(),
  image: EmbedMedia.optional(),
  thumbnail: EmbedMedia.optional(),
  author: z.object({ name: text(256), url: Url.optional(), icon_url: Url.optional() }).optional(),
  fields: z
    .array(z.object({ name: text(256), value: text(1024), inline: z.boolean().optional() }))
    .max(25)
    .optional(),
});
export type EmbedInput = z.infer<typeof Embed>;

/** The characters that count toward the 6000 total of a message's embeds. */
export function embedCharacters(embed: EmbedInput): number {
  let total = 0;
  total += charCount(embed.title ?? '') + charCount(embed.description ?? '');
  total += charCount(embed.footer?.text ?? '') + charCount(embed.author?.name ?? '');
  for (const field of embed.fields ?? []) total += charCount(field.name) + charCount(field.value);
  return total;
}

const Embeds = z
  .array(Embed)
  .max(MAX_EMBEDS)
  .refine((embeds) => embeds.reduce((sum, e) => sum + embedCharacters(e), 0) <= MAX_EMBED_TOTAL, {
    message: `Embed size exceeds maximum size of ${String(MAX_EMBED_TOTAL)}`,
    params: { code: 'MESSAGE_EMBED_SIZE_EXCEEDED' },
  });

export const AllowedMentions = z.object({
  parse: z
    .array(z.enum(['users', 'roles', 'everyone']))
    .max(3)
    .nullable()
    .optional(),
  users: z.array(Snowflake).max(100).nullable().optional(),
  roles: z.array(Snowflake).max(100).nullable().optional(),
  replied_user: z.boolean().nullable().optional(),
});
export type AllowedMentionsInput = z.infer<typeof AllowedMentions>;

/** An attachment of a create or edit body: `id` is the file's index (new) or an existing id. */
export const AttachmentRequest = z.object({
  id: z.union([z.string().regex(/^\d{1,20}$/), z.number().int().min(0)]).transform(String),
  filename: z.string().min(1).max(1024).optional(),
  description: text(1024).nullable().optional(),
  is_spoiler: z.boolean().optional(),
  title: z.string().max(1024).nullable().optional(),
});
export type AttachmentRequestInput = z.infer<typeof AttachmentRequest>;

export const MessageReference = z.object({
  type: z.union([z.literal(0), z.literal(1)]).optional(),
  message_id: Snowflake,
  channel_id: Snowflake.optional(),
  guild_id: Snowflake.optional(),
  fail_if_not_exists: z.boolean().optional(),
});

const Nonce = z.union([
  z.string().max(MAX_NONCE_LENGTH),
  z.number().int().min(Number.MIN_SAFE_INTEGER).max(Number.MAX_SAFE_INTEGER),
]);

/** A DM's metadata (SDK sends): at most 25 keys, values of at most 1024 characters (as lobbies). */
export const MAX_DM_METADATA_KEYS = 25;
export const MAX_DM_METADATA_VALUE = 1024;

/** The longest rich presence party id an activity invite names. */
export const MAX_PARTY_ID_LENGTH = 128;

/** A message's `flags` in a create or edit body (which bits a sender may set is checked later). */
const MessageFlagsField = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1)
  .nullable()
  .optional();

export const CreateMessageBody = z.object({
  content: text(MAX_CONTENT_LENGTH).nullable().optional(),
  embeds: Embeds.nullable().optional(),
  embed: Embed.nullable().optional(),
  allowed_mentions: AllowedMentions.nullable().optional(),
  tts: z.boolean().nullable().optional(),
  flags: MessageFlagsField,
  nonce: Nonce.nullable().optional(),
  enforce_nonce: z.boolean().nullable().optional(),
  message_reference: MessageReference.nullable().optional(),
  attachments: z.array(AttachmentRequest).max(MAX_ATTACHMENTS).nullable().optional(),
  // An activity invite (DMs only): JOIN (1) a rich presence party of `application_id`.
  activity: z
    .object({ type: z.literal(1), party_id: z.string().min(1).max(MAX_PARTY_ID_LENGTH) })
    .nullable()
    .optional(),
  application_id: Snowflake.nullable().optional(),
  components: componentsInput,
  poll: PollCreateBody.nullable().optional(),
  // A game's metadata of a DM it sends with an SDK token (Guildhall's SendUserMessageWithMetadata).
  metadata: z
    .record(z.string().min(1), z.string().max(MAX_DM_METADATA_VALUE))
    .refine((m) => Object.keys(m).length <= MAX_DM_METADATA_KEYS, {
      message: `Must have ${String(MAX_DM_METADATA_KEYS)} or fewer keys.`,
    })
    .nullable()
    .optional(),
});
export type CreateMessageInput = z.infer<typeof CreateMessageBody>;

export const EditMessageBody = z.object({
  content: text(MAX_CONTENT_LENGTH).nullable().optional(),
  embeds: Embeds.nullable().optional(),
  flags: MessageFlagsField,
  allowed_mentions: AllowedMentions.nullable().optional(),
  attachments: z.array(AttachmentRequest).max(MAX_ATTACHMENTS).nullable().optional(),
  components: componentsInput,
});
export type EditMessageInput = z.infer<typeof EditMessageBody>;

export const ChannelParams = z.object({ channel_id: z.string() });
export const MessageParams = z.object({ channel_id: z.string(), message_id: z.string() });

export const ListMessagesQuery = z.object({
  limit: queryInt(1, 100).default(50),
  around: Snowflake.optional(),
  before: Snowflake.optional(),
  after: Snowflake.optional(),
});
export type ListMessagesInput = z.infer<typeof ListMessagesQuery>;

export const BulkDeleteBody = z.object({
  messages: z.array(Snowflake).min(2).max(100),
});

export const ReactionParams = z.object({
  channel_id: z.string(),
  message_id: z.string(),
  emoji: z.string().max(256),
});
export const ReactionUserParams = ReactionParams.extend({ user_id: z.string() });

export const ListReactionsQuery = z.object({
  limit: queryInt(1, 100).default(25),
  after: Snowflake.optional(),
  type: z
    .enum(['0', '1'])
    .default('0')
    .transform((value): 0 | 1 => (value === '1' ? 1 : 0)),
});

/** The most pins one page lists (and the default; the deprecated route's whole answer). */
export const MAX_PINS_PAGE = 50;

export const ListPinsQuery = z.object({
  limit: queryInt(1, MAX_PINS_PAGE).default(MAX_PINS_PAGE),
  before: IsoTimestamp.optional(),
});

/** A webhook's or interaction's display name: 1–80 characters. */
export const WEBHOOK_NAME_MAX = 80;

/**
 * The body of an execute (POST /webhooks/{id}/{token}) and of an interaction's response or
 * followup message: JSON, or multipart with payload_json and files[n].
 */
export const WebhookMessageBody = z.object({
  content: text(MAX_CONTENT_LENGTH).nullable().optional(),
  username: z.string().min(1).max(WEBHOOK_NAME_MAX).nullable().optional(),
  avatar_url: Url.nullable().optional(),
  tts: z.boolean().nullable().optional(),
  embeds: Embeds.nullable().optional(),
  allowed_mentions: AllowedMentions.nullable().optional(),
  components: componentsInput,
  attachments: z.array(AttachmentRequest).max(MAX_ATTACHMENTS).nullable().optional(),
  flags: MessageFlagsField,
  thread_name: z.string().min(1).max(100).nullable().optional(),
  applied_tags: z.array(Snowflake).max(5).nullable().optional(),
  // Refused where the message is made (polls do not exist here yet).
  poll: z.unknown().optional(),
});
export type WebhookMessageInput = z.infer<typeof WebhookMessageBody>;

/** The body of an edit of a webhook's or interaction's message: a message edit's, and `poll`. */
export const WebhookEditBody = EditMessageBody.extend({ poll: z.unknown().optional() });
export type WebhookEditInput = z.infer<typeof WebhookEditBody>;
