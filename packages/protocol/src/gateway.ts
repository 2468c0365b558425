// Gateway opcodes, close codes, intents and capabilities.

/**
 * Gateway opcodes: the `op` of every frame. Opcode 5 is unused.
 *
 * @see docs/platform-notes.md#gateway-opcodes (Request Channel Info is opcode 43)
 */
export const GatewayOpcodes = {
  /** Receive: an event was dispatched (`t` names it, `s` is its sequence number). */
  DISPATCH: 0,
  /** Send and receive: keep the connection alive, or asked for by the server. */
  HEARTBEAT: 1,
  /** Send: start a new session. */
  IDENTIFY: 2,
  /** Send: update the client's presence. */
  PRESENCE_UPDATE: 3,
  /** Send: join, leave or move between voice channels. */
  VOICE_STATE_UPDATE: 4,
  /** Send: resume a disconnected session. */
  RESUME: 6,
  /** Receive: reconnect and resume now. */
  RECONNECT: 7,
  /** Send: ask for guild members (answered with GUILD_MEMBERS_CHUNK). */
  REQUEST_GUILD_MEMBERS: 8,
  /** Receive: the session is invalid; `d` tells whether it can be resumed. */
  INVALID_SESSION: 9,
  /** Receive: first frame after connecting, with `heartbeat_interval`. */
  HELLO: 10,
  /** Receive: a heartbeat was received. */
  HEARTBEAT_ACK: 11,
  /** Send: ask for the soundboard sounds of some guilds. */
  REQUEST_SOUNDBOARD_SOUNDS: 31,
  /** Send: ask for ephemeral channel fields (`status`, `voice_start_time`) of a guild. */
  REQUEST_CHANNEL_INFO: 43,
} as const;

/**
 * Gateway opcodes of Guildhall's own, which the platform does not have: no client library sends
 * them, and what they bring goes only to the sessions that ask (docs/gateway.md#guildhalls-own).
 */
export const GuildhallGatewayOpcodes = {
  /**
   * Send: follow who speaks in a guild voice channel (as SPEAKING_UPDATE dispatches), for a
   * person's client that shows the channel without being in its call (an activity's frame).
   */
  SPEAKING_SUBSCRIBE: 1001,
} as const;

/** A gateway opcode: a value of {@link GatewayOpcodes}. */
export type GatewayOpcode = (typeof GatewayOpcodes)[keyof typeof GatewayOpcodes];

/**
 * The close codes with which the gateway ends a session. Code 4006 is unused.
 *
 * @see docs/platform-notes.md#gateway-close-codes
 */
export const GatewayCloseCodes = {
  UNKNOWN_ERROR: 4000,
  UNKNOWN_OPCODE: 4001,
  DECODE_ERROR: 4002,
  NOT_AUTHENTICATED: 4003,
  AUTHENTICATION_FAILED: 4004,
  ALREADY_AUTHENTICATED: 4005,
  INVALID_SEQ: 4007,
  RATE_LIMITED: 4008,
  SESSION_TIMED_OUT: 4009,
  INVALID_SHARD: 4010,
  SHARDING_REQUIRED: 4011,
  INVALID_API_VERSION: 4012,
  INVALID_INTENTS: 4013,
  DISALLOWED_INTENTS: 4014,
} as const;

/** A gateway close code: a value of {@link GatewayCloseCodes}. */
export type GatewayCloseCode = (typeof GatewayCloseCodes)[keyof typeof GatewayCloseCodes];

/**
 * For each close code: whether a client should reconnect after it, and what it means.
 *
 * @see docs/platform-notes.md#gateway-close-codes
 */
export const GATEWAY_CLOSE_CODE_INFO: Readonly<
  Record<GatewayCloseCode, { readonly reconnect: boolean; readonly description: string }>
> = {
  4000: { reconnect: true, description: 'Unknown error.' },
  4001: { reconnect: true, description: 'Unknown opcode, or an invalid payload for an opcode.' },
  4002: { reconnect: true, description: 'Decode error: the payload could not be decoded.' },
  4003: {
    reconnect: true,
    description: 'Not authenticated: a payload was sent before identifying.',
  },
  4004: { reconnect: false, description: 'Authentication failed: the token is incorrect.' },
  4005: { reconnect: true, description: 'Already authenticated: more than one identify sent.' },
  4007: { reconnect: true, description: 'Invalid seq when resuming; start a new session.' },
  4008: { reconnect: true, description: 'Rate limited: payloads were sent too quickly.' },
  4009: { reconnect: true, description: 'Session timed out; start a new session.' },
  4010: { reconnect: false, description: 'Invalid shard sent when identifying.' },
  4011: {
    reconnect: false,
    description: 'Sharding required: the session would handle too many guilds.',
  },
  4012: { reconnect: false, description: 'Invalid API version for the gateway.' },
  4013: { reconnect: false, description: 'Invalid intents: the bitfield is not valid.' },
  4014: {
    reconnect: false,
    description: 'Disallowed intents: a privileged intent that is not enabled or approved.',
  },
};

function isGatewayCloseCode(code: number): code is GatewayCloseCode {
  return Object.hasOwn(GATEWAY_CLOSE_CODE_INFO, code);
}

/**
 * Tells whether a client should reconnect after the gateway closed with `code`.
 *
 * @param code - A WebSocket close code.
 * @returns `false` for the close codes marked as final in {@link GATEWAY_CLOSE_CODE_INFO}
 *   (4004, 4010–4014); `true` for every other code, including codes outside the table such as
 *   1000, 1001 and 1006, after which a client reconnects (and identifies anew or resumes).
 */
export function canReconnect(code: number): boolean {
  return isGatewayCloseCode(code) ? GATEWAY_CLOSE_CODE_INFO[code].reconnect : true;
}

/**
 * Gateway intents: the event groups a session subscribes to in Identify's `intents`.
 *
 * @see docs/platform-notes.md#gateway-intents; privileged intents are listed in
 * {@link PRIVILEGED_INTENTS}
 */
export const GatewayIntentBits = {
  GUILDS: 1 << 0,
  GUILD_MEMBERS: 1 << 1,
  GUILD_MODERATION: 1 << 2,
  GUILD_EXPRESSIONS: 1 << 3,
  GUILD_INTEGRATIONS: 1 << 4,
  GUILD_WEBHOOKS: 1 << 5,
  GUILD_INVITES: 1 << 6,
  GUILD_VOICE_STATES: 1 << 7,
  GUILD_PRESENCES: 1 << 8,
  GUILD_MESSAGES: 1 << 9,
  GUILD_MESSAGE_REACTIONS: 1 << 10,
  GUILD_MESSAGE_TYPING: 1 << 11,
  DIRECT_MESSAGES: 1 << 12,
  DIRECT_MESSAGE_REACTIONS: 1 << 13,
  DIRECT_MESSAGE_TYPING: 1 << 14,
  MESSAGE_CONTENT: 1 << 15,
  GUILD_SCHEDULED_EVENTS: 1 << 16,
  AUTO_MODERATION_CONFIGURATION: 1 << 20,
  AUTO_MODERATION_EXECUTION: 1 << 21,
  GUILD_MESSAGE_POLLS: 1 << 24,
  DIRECT_MESSAGE_POLLS: 1 << 25,
} as const;

/** The name of an intent: a key of {@link GatewayIntentBits}. */
export type GatewayIntentName = keyof typeof GatewayIntentBits;

/**
 * The privileged intents, which an application must have enabled (or been approved for) before a
 * session may ask for them; asking anyway closes with 4014.
 *
 * @see docs/platform-notes.md#privileged-intents
 */
export const PRIVILEGED_INTENTS: number =
  GatewayIntentBits.GUILD_MEMBERS |
  GatewayIntentBits.GUILD_PRESENCES |
  GatewayIntentBits.MESSAGE_CONTENT;

/** Every known intent: the OR of all {@link GatewayIntentBits}. */
export const ALL_INTENTS: number = Object.values(GatewayIntentBits).reduce(
  (all, bit) => all | bit,
  0,
);

/**
 * Identify's `capabilities` bitfield (default 0), separate from intents.
 *
 * @see docs/platform-notes.md#identify-capabilities
 */
export const GatewayCapabilities = {
  /**
   * Temporary opt-in to channel obfuscation: channels the bot cannot view are still dispatched,
   * obfuscated, instead of being left out.
   */
  CHANNEL_OBFUSCATION: 1 << 15,
} as const;
