// Message types and message flags: the message object's `type` and `flags`.

/**
 * Message types (the message object's `type`). Values 13, 30, 33 to 35 and 40 to 45 are not
 * documented.
 *
 * @see docs/platform-notes.md#message-types-and-flags
 */
export const MessageTypes = {
  DEFAULT: 0,
  RECIPIENT_ADD: 1,
  RECIPIENT_REMOVE: 2,
  CALL: 3,
  CHANNEL_NAME_CHANGE: 4,
  CHANNEL_ICON_CHANGE: 5,
  CHANNEL_PINNED_MESSAGE: 6,
  USER_JOIN: 7,
  GUILD_BOOST: 8,
  GUILD_BOOST_TIER_1: 9,
  GUILD_BOOST_TIER_2: 10,
  GUILD_BOOST_TIER_3: 11,
  CHANNEL_FOLLOW_ADD: 12,
  GUILD_DISCOVERY_DISQUALIFIED: 14,
  GUILD_DISCOVERY_REQUALIFIED: 15,
  GUILD_DISCOVERY_GRACE_PERIOD_INITIAL_WARNING: 16,
  GUILD_DISCOVERY_GRACE_PERIOD_FINAL_WARNING: 17,
  THREAD_CREATED: 18,
  REPLY: 19,
  CHAT_INPUT_COMMAND: 20,
  THREAD_STARTER_MESSAGE: 21,
  GUILD_INVITE_REMINDER: 22,
  CONTEXT_MENU_COMMAND: 23,
  AUTO_MODERATION_ACTION: 24,
  ROLE_SUBSCRIPTION_PURCHASE: 25,
  INTERACTION_PREMIUM_UPSELL: 26,
  STAGE_START: 27,
  STAGE_END: 28,
  STAGE_SPEAKER: 29,
  STAGE_TOPIC: 31,
  GUILD_APPLICATION_PREMIUM_SUBSCRIPTION: 32,
  GUILD_INCIDENT_ALERT_MODE_ENABLED: 36,
  GUILD_INCIDENT_ALERT_MODE_DISABLED: 37,
  GUILD_INCIDENT_REPORT_RAID: 38,
  GUILD_INCIDENT_REPORT_FALSE_ALARM: 39,
  POLL_RESULT: 46,
} as const;

/** A message type: a value of {@link MessageTypes}. */
export type MessageType = (typeof MessageTypes)[keyof typeof MessageTypes];

/**
 * Message flags (the message object's `flags`). A sender may set only SUPPRESS_EMBEDS and
 * SUPPRESS_NOTIFICATIONS (and IS_COMPONENTS_V2, IS_VOICE_MESSAGE where those features exist); the
 * rest are set by the platform.
 *
 * @see docs/platform-notes.md#message-types-and-flags
 */
export const MessageFlags = {
  /** Published to the channels that follow this announcement channel. */
  CROSSPOSTED: 1 << 0,
  /** A crosspost from a followed announcement channel. */
  IS_CROSSPOST: 1 << 1,
  /** Embeds are not shown when the message is serialized for clients. */
  SUPPRESS_EMBEDS: 1 << 2,
  /** The source message of this crosspost was deleted. */
  SOURCE_MESSAGE_DELETED: 1 << 3,
  /** From the urgent message system. */
  URGENT: 1 << 4,
  /** Has a thread started from it. */
  HAS_THREAD: 1 << 5,
  /** Only the user who invoked the interaction sees it. */
  EPHEMERAL: 1 << 6,
  /** An interaction response while the bot is "thinking". */
  LOADING: 1 << 7,
  /** Some roles were not mentioned or added to the thread. */
  FAILED_TO_MENTION_SOME_ROLES_IN_THREAD: 1 << 8,
  /** Sent without push or desktop notifications. */
  SUPPRESS_NOTIFICATIONS: 1 << 12,
  /** A voice message. */
  IS_VOICE_MESSAGE: 1 << 13,
  /** A forward: the message carries a snapshot of another. */
  HAS_SNAPSHOT: 1 << 14,
  /** Laid out with components only (no content, embeds or stickers). */
  IS_COMPONENTS_V2: 1 << 15,
} as const;

/** The name of a message flag: a key of {@link MessageFlags}. */
export type MessageFlagName = keyof typeof MessageFlags;
