/**
 * @module gateway/clientOps: what a client may send, as zod schemas. A decoded frame is checked
 * against {@link FrameEnvelope} (else close 4002) and then against {@link ClientFrame}, a union
 * discriminated on `op`. Which close a frame that fails gets depends on the op and on the
 * connection's state, so the connection loop decides it (gateway/connection.ts): 4002 for an
 * IDENTIFY or RESUME whose `d` is not an object, 4001 for an op outside the union or a command
 * whose `d` does not fit.
 *
 * The schemas are lenient where the platform is: a field of the wrong type takes its default
 * (`.catch`) rather than refusing the frame; only what the platform refuses fails to parse.
 * Intents and shard stay unparsed here: their close codes (4013, 4010) come after the token is
 * checked, so the login rule parses them (gateway/login.ts).
 */
import {
  GatewayOpcodes as Op,
  GuildhallGatewayOpcodes as GuildhallOp,
  isSnowflake,
} from '@guildhall/protocol';
import { z } from 'zod';

/**
 * IDENTIFY's large_threshold: the members a GUILD_CREATE carries before a guild counts large (the
 * most, MAX_LARGE_THRESHOLD, is what a guild's snapshot loads).
 */
export const MIN_LARGE_THRESHOLD = 50;
export const MAX_LARGE_THRESHOLD = 250;
/** Op 8 answers at most this many members for a query or a list of ids. */
export const MAX_QUERIED_MEMBERS = 100;
/** Op 8's nonce is cut to this length. */
export const MAX_NONCE_LENGTH = 32;

const PRESENCE_STATUSES = ['online', 'dnd', 'idle', 'invisible', 'offline'] as const;
const CHANNEL_INFO_FIELDS = ['status', 'voice_start_time'] as const;

const safeInt = z.number().refine(Number.isSafeInteger);
const snowflake = z.string().refine(isSnowflake);
const flag = z.boolean().catch(false);

/** Any frame: an object with an integer `op` (anything else: close 4002). */
export const FrameEnvelope = z.object({
  op: z.number().refine(Number.isInteger),
  d: z.unknown().optional(),
});

const Resume = z.object({
  token: z.string().catch(''),
  session_id: z.string().catch(''),
  /** -1 when missing or not an integer: close 4007. */
  seq: safeInt.catch(-1),
});

/** Activity text fields (name, state, details, party id, secrets, image texts): at most this long. */
export const MAX_ACTIVITY_TEXT = 128;
/** `state_url`, `details_url` and the assets' URLs: at most this long. */
export const MAX_ACTIVITY_URL = 256;
/** At most this many buttons, each a label of 1–32 and a URL of 1–512 characters. */
export const MAX_ACTIVITY_BUTTONS = 2;
export const MAX_BUTTON_LABEL = 32;
export const MAX_BUTTON_URL = 512;
/** A streaming activity's URL (type 1). */
const MAX_STREAM_URL = 512;
/** The name a custom status (type 4) gets when it comes without one. */
export const CUSTOM_STATUS_NAME = 'Custom Status';
const CUSTOM_STATUS_TYPE = 4;
/** Activity types: 0 Playing, 1 Streaming, 2 Listening, 3 Watching, 4 Custom, 5 Competing. */
const MAX_ACTIVITY_TYPE = 5;

/**
 * An activity with its null and empty members (null, "", {} and [] after their own are dropped)
 * removed, as the platform stores and sends it.
 */
export function dropEmpty(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(dropEmpty);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(value)) {
    const v = dropEmpty(raw);
    if (v === null || v === undefined || v === '') continue;
    if (Array.isArray(v) && v.length === 0) continue;
    if (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0) continue;
    out[key] = v;
  }
  return out;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

const text = z.string().max(MAX_ACTIVITY_TEXT);
const activityUrl = z.string().max(MAX_ACTIVITY_URL).refine(isHttpUrl);
const unixMs = safeInt.refine((n) => n >= 0);
const count = safeInt.refine((n) => n >= 0);

/** The platforms of an activity's `supported_platforms`. */
export const ACTIVITY_GAME_PLATFORMS = [
  'desktop',
  'xbox',
  'samsung',
  'ios',
  'android',
  'embedded',
  'ps4',
  'ps5',
] as const;

/**
 * One activity of op 3 (api-facts §10.8; the Social SDK's rich presence): what the platform
 * refuses fails the frame (close 4001, as any invalid op 3), unknown members are dropped.
 * `application_id` is not the client's to choose: op 3 sets it (gateway/commands.ts).
 */
export const Activity = z
  .object({
    name: text.min(1).optional(),
    type: safeInt.refine((t) => t >= 0 && t <= MAX_ACTIVITY_TYPE),
    url: z.string().max(MAX_STREAM_URL).optional(),
    created_at: unixMs.optional(),
    timestamps: z.object({ start: unixMs.optional(), end: unixMs.optional() }).optional(),
    application_id: snowflake.optional(),
    status_display_type: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
    details: text.optional(),
    details_url: activityUrl.optional(),
    state: text.optional(),
    state_url: activityUrl.optional(),
    emoji: z
      .object({
        name: text,
        id: snowflake.optional(),
        animated: z.boolean().optional(),
      })
      .optional(),
    party: z
      .object({
        id: text.optional(),
        /** [current, max]: max at least 1 and at least current. */
        size: z
          .tuple([count, count])
          .refine(([current, max]) => max >= 1 && current <= max)
          .optional(),
        /** 0 private (friends and party members may ask to join), 1 public. */
        privacy: z.union([z.literal(0), z.literal(1)]).optional(),
      })
      .optional(),
    assets: z
      .object({
        large_image: text.optional(),
        large_text: text.optional(),
        large_url: activityUrl.optional(),
        small_image: text.optional(),
        small_text: text.optional(),
        small_url: activityUrl.optional(),
        invite_cover_image: text.optional(),
      })
      .optional(),
    secrets: z
      .object({ join: text.optional(), spectate: text.optional(), match: text.optional() })
      .optional(),
    instance: z.boolean().optional(),
    flags: count.optional(),
    /** Where the game's join invites can be accepted (the SDK's ActivityGamePlatforms). */
    supported_platforms: z.array(z.enum(ACTIVITY_GAME_PLATFORMS)).max(8).optional(),
    /** The publisher's parent application: kept only when it approved a link to this one. */
    parent_application_id: snowflake.optional(),
    buttons: z
      .array(
        z.object({
          label: z.string().min(1).max(MAX_BUTTON_LABEL),
          url: z.string().min(1).max(MAX_BUTTON_URL).refine(isHttpUrl),
        }),
      )
      .max(MAX_ACTIVITY_BUTTONS)
      .optional(),
  })
  .refine((a) => a.name !== undefined || a.type === CUSTOM_STATUS_TYPE, 'name')
  .transform((a) => ({ ...a, name: a.name ?? CUSTOM_STATUS_NAME }));

export type Activity = z.infer<typeof Activity>;

const PresenceUpdate = z.object({
  status: z.enum(PRESENCE_STATUSES),
  /**
   * Anything but a list counts as none; a list holds activities, null and empty members dropped.
   */
  activities: z.preprocess(
    (v): unknown => (Array.isArray(v) ? v.map(dropEmpty) : []),
    z.array(Activity),
  ),
  since: z.number().nullable().catch(null),
  afk: flag,
});

const Identify = z.object({
  token: z.string().catch(''),
  intents: z.unknown().optional(),
  shard: z.unknown().optional(),
  compress: flag,
  large_threshold: safeInt
    .transform((n) => Math.min(MAX_LARGE_THRESHOLD, Math.max(MIN_LARGE_THRESHOLD, n)))
    .catch(MIN_LARGE_THRESHOLD),
  capabilities: safeInt.catch(0),
  /** The session's first presence, as op 3 would set it (discord.js always sends one). */
  presence: PresenceUpdate.optional().catch(undefined),
});

/** Op 4: a guild's voice channel, or with `guild_id: null` a lobby's call (channel_id: the lobby). */
const VoiceStateUpdate = z.object({
  guild_id: snowflake.nullable(),
  channel_id: snowflake.nullable(),
  self_mute: flag,
  self_deaf: flag,
  self_video: flag,
});

const RequestGuildMembers = z
  .object({
    guild_id: snowflake,
    nonce: z
      .string()
      .transform((s) => s.slice(0, MAX_NONCE_LENGTH))
      .optional()
      .catch(undefined),
    limit: z
      .number()
      .transform((n) => Math.max(0, Math.floor(n)))
      .catch(0),
    /** One id or a list (every one a snowflake, the first 100 kept); null when neither. */
    user_ids: z.preprocess(
      (v) => (Array.isArray(v) ? v : typeof v === 'string' ? [v] : null),
      z
        .array(snowflake)
        .transform((ids) => ids.slice(0, MAX_QUERIED_MEMBERS))
        .nullable(),
    ),
    query: z.string().nullable().catch(null),
    presences: flag,
  })
  .refine((d) => d.user_ids !== null || d.query !== null, 'query or user_ids');

const RequestSoundboardSounds = z
  .object({ guild_ids: z.array(z.unknown()).catch([]) })
  .catch({ guild_ids: [] });

const RequestChannelInfo = z.object({
  guild_id: snowflake,
  fields: z.array(z.enum(CHANNEL_INFO_FIELDS)),
});

/** Guildhall's op 1001: the guild voice channel to follow who speaks in, or none. */
const SpeakingSubscribe = z.object({ guild_id: snowflake, channel_id: snowflake.nullable() });

/** Every op a client may send, with its payload. */
export const ClientFrame = z.discriminatedUnion('op', [
  z.object({ op: z.literal(Op.HEARTBEAT), d: z.unknown().optional() }),
  z.object({ op: z.literal(Op.IDENTIFY), d: Identify }),
  z.object({ op: z.literal(Op.RESUME), d: Resume }),
  z.object({ op: z.literal(Op.PRESENCE_UPDATE), d: PresenceUpdate }),
  z.object({ op: z.literal(Op.VOICE_STATE_UPDATE), d: VoiceStateUpdate }),
  z.object({ op: z.literal(Op.REQUEST_GUILD_MEMBERS), d: RequestGuildMembers }),
  z.object({ op: z.literal(Op.REQUEST_SOUNDBOARD_SOUNDS), d: RequestSoundboardSounds }),
  z.object({ op: z.literal(Op.REQUEST_CHANNEL_INFO), d: RequestChannelInfo }),
  z.object({ op: z.literal(GuildhallOp.SPEAKING_SUBSCRIBE), d: SpeakingSubscribe }),
]);

export type ClientFrame = z.infer<typeof ClientFrame>;
export type IdentifyPayload = z.infer<typeof Identify>;
export type ResumePayload = z.infer<typeof Resume>;
export type PresenceUpdatePayload = z.infer<typeof PresenceUpdate>;
export type VoiceStateUpdatePayload = z.infer<typeof VoiceStateUpdate>;
export type RequestGuildMembersPayload = z.infer<typeof RequestGuildMembers>;
export type SpeakingSubscribePayload = z.infer<typeof SpeakingSubscribe>;
export type RequestChannelInfoPayload = z.infer<typeof RequestChannelInfo>;
/** The frames that open or resume a session. */
export type LoginFrame = Extract<ClientFrame, { op: typeof Op.IDENTIFY | typeof Op.RESUME }>;
/** The frames an identified session sends besides heartbeats. */
export type CommandFrame = Exclude<
  ClientFrame,
  { op: typeof Op.HEARTBEAT | typeof Op.IDENTIFY | typeof Op.RESUME }
>;

/** Guildhall's op 1001, which the node's speaking watch answers (gateway/speakingWatch.ts). */
export type SpeakingSubscribeFrame = Extract<
  CommandFrame,
  { op: typeof GuildhallOp.SPEAKING_SUBSCRIBE }
>;
/** The platform's commands (gateway/commands.ts). */
export type PlatformCommandFrame = Exclude<CommandFrame, SpeakingSubscribeFrame>;

/** The ops of {@link ClientFrame}. */
export const CLIENT_OPS: ReadonlySet<number> = new Set(
  ClientFrame.options.map((option) => option.shape.op.value),
);

/** The ops the protocol defines, sent or received. */
export const KNOWN_OPS: ReadonlySet<number> = new Set([
  ...Object.values(Op),
  ...Object.values(GuildhallOp),
]);
