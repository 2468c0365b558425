/**
 * @module gateway/payloads: the payloads of the gateway's own frames (HELLO, INVALID_SESSION,
 * READY, RESUMED) and the fields GUILD_CREATE adds to the guild object, each checked against
 * discord-api-types (`satisfies`, through resources' WireShape as the serializers are), so a
 * drift from the wire shape fails the typecheck. Where the platform sends more than, or other
 * than, the library's types, the shape below says what and why.
 */
import type {
  GatewayGuildCreateDispatchData,
  GatewayHelloData,
  GatewayInvalidSessionData,
  GatewayReadyDispatchData,
} from 'discord-api-types/v10';
import type { ApplicationRecord, MemberRecord, UserRecord } from '../storage/index.js';
import type { MemberWire } from '../resources/members/index.js';
import type { ScheduledEventWire } from '../resources/scheduledEvents/index.js';
import type { SoundWire } from '../resources/soundboard/index.js';
import type { StageInstanceWire } from '../resources/voice/index.js';
import { serializeUser } from '../resources/users/index.js';
import type { WireShape } from '../resources/wireShape.js';

/** The application flags READY shows: the low 31 bits. */
const READY_APPLICATION_FLAGS_MASK = 0x7fff_ffffn;

/** HELLO (op 10): how often the client heartbeats. */
export function helloPayload(heartbeatIntervalMs: number) {
  return { heartbeat_interval: heartbeatIntervalMs } satisfies GatewayHelloData;
}

/** INVALID_SESSION (op 9): whether the session may still be resumed. */
export function invalidSessionPayload(resumable: boolean) {
  return resumable satisfies GatewayInvalidSessionData;
}

/**
 * RESUMED's payload: an empty object. discord-api-types types it `undefined` (a null `d`); the
 * platform sends an object (its `_trace`), which no client reads, so ours is empty.
 */
export function resumedPayload(): Record<string, never> {
  return {};
}

/**
 * READY as sent, against discord-api-types: `application` is left out of a person's READY (the
 * library types bots' only) and has `flags` without the library's newer `flags_new`; the fields
 * of a user client's READY the library does not type (`session_type`, `private_channels`,
 * `relationships`, `user_settings`, …) are sent empty, as the platform sends them to bots.
 */
type ReadyWireShape = Omit<WireShape<GatewayReadyDispatchData>, 'application'> & {
  application: { id: string; flags: number } | undefined;
  session_type: string;
  private_channels: readonly unknown[];
  presences: readonly unknown[];
  relationships: readonly unknown[];
  /** An SDK session's lobbies (of its token's application); absent for bots and people. */
  lobbies?: readonly unknown[];
  guild_join_requests: readonly never[];
  user_settings: Record<string, never>;
  geo_ordered_rtc_regions: readonly never[];
  auth: Record<string, never>;
};

/**
 * What READY shows an SDK session, or a person's own session, of its user's social graph
 * (docs/gateway.md#sdk-sessions); lobbies only to an SDK session.
 */
export interface ReadySocial {
  relationships: readonly unknown[];
  privateChannels: readonly unknown[];
  lobbies?: readonly unknown[];
  presences: readonly unknown[];
}

/** READY: the session's user (with its private fields), its guilds as unavailable, how to resume. */
export function readyPayload(input: {
  version: number;
  user: UserRecord;
  /** Whether the user's email is hidden (an app's session, or a token without `email`). */
  isApp: boolean;
  /** The social graph of an SDK session or a person's session; none for bots. */
  social?: ReadySocial;
  members: readonly MemberRecord[];
  sessionId: string;
  resumeGatewayUrl: string;
  shard: readonly [number, number];
  application: ApplicationRecord | null;
}) {
  const { user, application } = input;
  return {
    v: input.version,
    user: {
      ...serializeUser(user),
      verified: user.verified,
      mfa_enabled: user.mfaEnabled,
      email: input.isApp ? null : user.email,
    },
    guilds: input.members.map((m) => ({ id: m.guildId, unavailable: true as const })),
    session_id: input.sessionId,
    resume_gateway_url: input.resumeGatewayUrl,
    session_type: 'normal',
    shard: input.shard,
    application:
      application === null
        ? undefined
        : { id: application.id, flags: Number(application.flags & READY_APPLICATION_FLAGS_MASK) },
    private_channels: input.social?.privateChannels ?? [],
    presences: input.social?.presences ?? [],
    relationships: input.social?.relationships ?? [],
    ...(input.social?.lobbies === undefined ? {} : { lobbies: input.social.lobbies }),
    guild_join_requests: [],
    user_settings: {},
    geo_ordered_rtc_regions: [],
    auth: {},
  } satisfies ReadyWireShape;
}

/**
 * The fields GUILD_CREATE adds to the guild object, against discord-api-types. Members come from
 * their serializer and are checked here, scheduled events by theirs; channels, presences and
 * voice states are the gateway's copies of what dispatches carried (untyped JSON off the bus,
 * checked where the services serialized them), so only their being lists is. `lazy`, which the
 * platform sends and the library does not type, is always true here. Stage instances and
 * soundboard sounds are the guild's (the session's view of stages).
 */
type GuildCreateExtrasShape = WireShape<
  Pick<
    GatewayGuildCreateDispatchData,
    'joined_at' | 'large' | 'unavailable' | 'member_count' | 'members' | 'soundboard_sounds'
  >
> & {
  /** The REST shape (StageInstanceResponse): `guild_scheduled_event_id` null, not absent. */
  stage_instances: readonly StageInstanceWire[];
  voice_states: readonly unknown[];
  channels: readonly unknown[];
  /** The active threads the session may view (resources/threads serializes them). */
  threads: readonly unknown[];
  presences: readonly unknown[];
  /** Checked by their serializer against the library's base event (its union ties fields). */
  guild_scheduled_events: readonly ScheduledEventWire[];
  lazy: boolean;
};

/** GUILD_CREATE's fields beyond the guild object, for one session's view of the guild. */
export function guildCreateExtras(input: {
  joinedAtMs: number;
  large: boolean;
  memberCount: number;
  voiceStates: readonly unknown[];
  members: readonly MemberWire[];
  channels: readonly unknown[];
  threads?: readonly unknown[];
  presences: readonly unknown[];
  scheduledEvents: readonly ScheduledEventWire[];
  stageInstances?: readonly StageInstanceWire[];
  soundboardSounds?: readonly SoundWire[];
}) {
  return {
    joined_at: new Date(input.joinedAtMs).toISOString(),
    large: input.large,
    unavailable: false,
    member_count: input.memberCount,
    voice_states: input.voiceStates,
    members: input.members,
    channels: input.channels,
    threads: input.threads ?? [],
    presences: input.presences,
    stage_instances: input.stageInstances ?? [],
    guild_scheduled_events: input.scheduledEvents,
    soundboard_sounds: input.soundboardSounds ?? [],
    lazy: true,
  } satisfies GuildCreateExtrasShape;
}
