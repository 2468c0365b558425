// The error catalogue: every error the platform answers with, its JSON `code`, its HTTP status and
// its default message, plus the wire shapes of error bodies.
//
// Codes match `discord-api-types`' `RESTJSONErrorCodes`; codes the library does not carry yet come
// from the platform's docs (docs/platform-notes.md#error-codes-and-statuses). Messages use the
// platform's real wording where it is known, otherwise the wording of its JSON error code table.
// The docs pair an HTTP status with only a few codes, so most statuses below are our assumption:
// each such entry carries a trailing `// status assumed` comment. The rule used for those: 404 for
// `Unknown …`, 403 for missing access, permissions or authorization, 429 for rate limits, 400 for
// the rest.

/**
 * One entry of the {@link ERRORS} catalogue.
 */
export interface ErrorDefinition {
  /** The JSON error code sent in the body (`0` = general error). */
  readonly code: number;
  /** The HTTP status the error is answered with. */
  readonly status: number;
  /** The default human-readable message. */
  readonly message: string;
}

/**
 * The error catalogue, keyed by a stable SCREAMING_SNAKE name. Handlers never pick a status: they
 * name an entry and the error layer answers with its `code`, `status` and `message`.
 *
 * Several entries share code `0` (general errors told apart only by status and message). Every
 * non-zero code appears once.
 *
 * @example
 * ```ts
 * const { code, status, message } = ERRORS.UNKNOWN_CHANNEL; // 10003, 404, 'Unknown Channel'
 * ```
 * @see docs/platform-notes.md#error-codes-and-statuses
 */
export const ERRORS = {
  // General errors (code 0).
  GENERAL: { code: 0, status: 400, message: 'General error' }, // status assumed
  UNAUTHORIZED: { code: 0, status: 401, message: '401: Unauthorized' },
  NOT_FOUND: { code: 0, status: 404, message: '404: Not Found' },
  METHOD_NOT_ALLOWED: { code: 0, status: 405, message: '405: Method Not Allowed' },
  UNSUPPORTED_MEDIA_TYPE: { code: 0, status: 415, message: '415: Unsupported Media Type' },
  RATE_LIMITED: { code: 0, status: 429, message: 'You are being rate limited.' },
  INTERNAL_SERVER_ERROR: { code: 0, status: 500, message: 'Internal Server Error' },
  INVALID_API_VERSION: { code: 0, status: 400, message: 'Invalid API version' },
  // The platform lists no code for an unknown subscription: a general 404 with its own message.
  SUBSCRIPTION_NOT_FOUND: { code: 0, status: 404, message: 'Unknown Subscription' },
  // The reference library has no codes for these unknown objects; a 404 that names them (assumed).
  AUTO_MODERATION_RULE_NOT_FOUND: { code: 0, status: 404, message: 'Unknown Auto Moderation Rule' },
  JOIN_REQUEST_NOT_FOUND: { code: 0, status: 404, message: 'Unknown Join Request' },

  // 10xxx: unknown resources.
  UNKNOWN_ACCOUNT: { code: 10001, status: 404, message: 'Unknown Account' }, // status assumed
  UNKNOWN_APPLICATION: { code: 10002, status: 404, message: 'Unknown Application' }, // status assumed
  UNKNOWN_CHANNEL: { code: 10003, status: 404, message: 'Unknown Channel' }, // status assumed
  UNKNOWN_GUILD: { code: 10004, status: 404, message: 'Unknown Guild' }, // status assumed
  UNKNOWN_INTEGRATION: { code: 10005, status: 404, message: 'Unknown Integration' }, // status assumed
  UNKNOWN_INVITE: { code: 10006, status: 404, message: 'Unknown Invite' }, // status assumed
  UNKNOWN_MEMBER: { code: 10007, status: 404, message: 'Unknown Member' }, // status assumed
  UNKNOWN_MESSAGE: { code: 10008, status: 404, message: 'Unknown Message' }, // status assumed
  UNKNOWN_OVERWRITE: { code: 10009, status: 404, message: 'Unknown Overwrite' }, // status assumed
  UNKNOWN_PROVIDER: { code: 10010, status: 404, message: 'Unknown Provider' }, // status assumed
  UNKNOWN_ROLE: { code: 10011, status: 404, message: 'Unknown Role' }, // status assumed
  UNKNOWN_TOKEN: { code: 10012, status: 404, message: 'Unknown Token' }, // status assumed
  UNKNOWN_USER: { code: 10013, status: 404, message: 'Unknown User' }, // status assumed
  UNKNOWN_EMOJI: { code: 10014, status: 404, message: 'Unknown Emoji' }, // status assumed
  UNKNOWN_WEBHOOK: { code: 10015, status: 404, message: 'Unknown Webhook' }, // status assumed
  UNKNOWN_WEBHOOK_SERVICE: { code: 10016, status: 404, message: 'Unknown Webhook Service' }, // status assumed
  UNKNOWN_SESSION: { code: 10020, status: 404, message: 'Unknown Session' }, // status assumed
  UNKNOWN_ASSET: { code: 10021, status: 404, message: 'Unknown Asset' }, // status assumed
  UNKNOWN_BAN: { code: 10026, status: 404, message: 'Unknown Ban' }, // status assumed
  UNKNOWN_SKU: { code: 10027, status: 404, message: 'Unknown SKU' }, // status assumed
  UNKNOWN_ENTITLEMENT: { code: 10029, status: 404, message: 'Unknown Entitlement' }, // status assumed
  UNKNOWN_LOBBY: { code: 10031, status: 404, message: 'Unknown Lobby' }, // status assumed
  UNKNOWN_STICKER: { code: 10060, status: 404, message: 'Unknown Sticker' }, // status assumed
  UNKNOWN_STICKER_PACK: { code: 10061, status: 404, message: 'Unknown Sticker Pack' }, // status assumed
  UNKNOWN_INTERACTION: { code: 10062, status: 404, message: 'Unknown interaction' }, // status assumed
  UNKNOWN_APPLICATION_COMMAND: {
    code: 10063,
    status: 404,
    message: 'Unknown application command',
  }, // status assumed
  UNKNOWN_VOICE_STATE: { code: 10065, status: 404, message: 'Unknown Voice State' }, // status assumed
  UNKNOWN_APPLICATION_COMMAND_PERMISSIONS: {
    code: 10066,
    status: 404,
    message: 'Unknown application command permissions',
  }, // status assumed
  UNKNOWN_STAGE_INSTANCE: { code: 10067, status: 404, message: 'Unknown Stage Instance' }, // status assumed
  UNKNOWN_GUILD_TEMPLATE: { code: 10057, status: 404, message: 'Unknown Guild Template' }, // status assumed
  UNKNOWN_GUILD_WELCOME_SCREEN: {
    code: 10069,
    status: 404,
    message: 'Unknown Guild Welcome Screen',
  }, // status assumed
  UNKNOWN_GUILD_SCHEDULED_EVENT: {
    code: 10070,
    status: 404,
    message: 'Unknown Guild Scheduled Event',
  }, // status assumed
  UNKNOWN_GUILD_SCHEDULED_EVENT_USER: {
    code: 10071,
    status: 404,
    message: 'Unknown Guild Scheduled Event User',
  }, // status assumed
  UNKNOWN_TAG: { code: 10087, status: 404, message: 'Unknown Tag' }, // status assumed
  UNKNOWN_SOUND: { code: 10097, status: 404, message: 'Unknown Sound' }, // status assumed
  UNKNOWN_INVITE_TARGET_USERS_JOB: {
    code: 10124,
    status: 404,
    message: 'Unknown invite target users job',
  }, // status assumed
  UNKNOWN_INVITE_TARGET_USERS: {
    code: 10129,
    status: 404,
    message: 'Unknown invite target users',
  }, // status assumed

  // 20xxx: actor and rate restrictions.
  BOTS_CANNOT_USE_ENDPOINT: {
    code: 20001,
    status: 403,
    message: 'Bots cannot use this endpoint',
  }, // status assumed
  ONLY_BOTS_CAN_USE_ENDPOINT: {
    code: 20002,
    status: 403,
    message: 'Only bots can use this endpoint',
  }, // status assumed
  EXPLICIT_CONTENT_BLOCKED: {
    code: 20009,
    status: 400,
    message: 'Explicit content cannot be sent to the desired recipient(s)',
  }, // status assumed
  NOT_AUTHORIZED_FOR_APPLICATION: {
    code: 20012,
    status: 403,
    message: 'You are not authorized to perform this action on this application',
  }, // status assumed
  SLOWMODE_RATE_LIMIT: {
    code: 20016,
    status: 429,
    message: 'This action cannot be performed due to slowmode rate limit',
  }, // status assumed
  OWNER_ONLY_ACTION: {
    code: 20018,
    status: 403,
    message: 'Only the owner of this account can perform this action',
  }, // status assumed
  ANNOUNCEMENT_EDIT_RATE_LIMIT: {
    code: 20022,
    status: 429,
    message: 'This message cannot be edited due to announcement rate limits',
  }, // status assumed
  UNDER_MINIMUM_AGE: { code: 20024, status: 403, message: 'Under minimum age' }, // status assumed
  CHANNEL_WRITE_RATE_LIMIT: {
    code: 20028,
    status: 429,
    message: 'The write action you are performing on the channel has hit the write rate limit',
  }, // status assumed
  SERVER_WRITE_RATE_LIMIT: {
    code: 20029,
    status: 429,
    message: 'The write action you are performing on the server has hit the write rate limit',
  }, // status assumed
  DISALLOWED_WORDS: {
    code: 20031,
    status: 400,
    message:
      'Your Stage topic, server name, server description, or channel names contain words that are not allowed',
  }, // status assumed
  GUILD_PREMIUM_TIER_TOO_LOW: {
    code: 20035,
    status: 400,
    message: 'Guild premium subscription level too low',
  }, // status assumed

  // 30xxx: limits reached.
  MAX_GUILDS: { code: 30001, status: 400, message: 'Maximum number of guilds reached (100)' }, // status assumed
  MAX_FRIENDS: { code: 30002, status: 400, message: 'Maximum number of friends reached (1000)' }, // status assumed
  MAX_PINS: {
    code: 30003,
    status: 400,
    message: 'Maximum number of pins reached for the channel (250)',
  }, // status assumed
  MAX_RECIPIENTS: {
    code: 30004,
    status: 400,
    message: 'Maximum number of recipients reached (10)',
  }, // status assumed
  MAX_ROLES: { code: 30005, status: 400, message: 'Maximum number of guild roles reached (250)' }, // status assumed
  MAX_WEBHOOKS: { code: 30007, status: 400, message: 'Maximum number of webhooks reached (15)' }, // status assumed
  MAX_EMOJIS: { code: 30008, status: 400, message: 'Maximum number of emojis reached' }, // status assumed
  MAX_REACTIONS: {
    code: 30010,
    status: 400,
    message: 'Maximum number of reactions reached (20)',
  }, // status assumed
  MAX_GROUP_DMS: { code: 30011, status: 400, message: 'Maximum number of group DMs reached (10)' }, // status assumed
  MAX_CHANNELS: {
    code: 30013,
    status: 400,
    message: 'Maximum number of guild channels reached (500)',
  }, // status assumed
  MAX_ATTACHMENTS: {
    code: 30015,
    status: 400,
    message: 'Maximum number of attachments in a message reached (10)',
  }, // status assumed
  MAX_INVITES: { code: 30016, status: 400, message: 'Maximum number of invites reached (1000)' }, // status assumed
  MAX_ANIMATED_EMOJIS: {
    code: 30018,
    status: 400,
    message: 'Maximum number of animated emojis reached',
  }, // status assumed
  MAX_SERVER_MEMBERS: {
    code: 30019,
    status: 400,
    message: 'Maximum number of server members reached',
  }, // status assumed
  MAX_CATEGORIES: {
    code: 30030,
    status: 400,
    message: 'Maximum number of server categories has been reached (5)',
  }, // status assumed
  MAX_APPLICATION_COMMANDS: {
    code: 30032,
    status: 400,
    message: 'Maximum number of application commands reached',
  }, // status assumed
  MAX_THREAD_PARTICIPANTS: {
    code: 30033,
    status: 400,
    message: 'Maximum number of thread participants has been reached (1000)',
  }, // status assumed
  MAX_DAILY_APPLICATION_COMMAND_CREATES: {
    code: 30034,
    status: 400,
    message: 'Maximum number of daily application command creates has been reached (200)',
  }, // status assumed
  MAX_NON_MEMBER_BANS: {
    code: 30035,
    status: 400,
    message: 'Maximum number of bans for non-guild members have been exceeded',
  }, // status assumed
  MAX_BAN_FETCHES: {
    code: 30037,
    status: 400,
    message: 'Maximum number of bans fetches has been reached',
  }, // status assumed
  MAX_UNCOMPLETED_SCHEDULED_EVENTS: {
    code: 30038,
    status: 400,
    message: 'Maximum number of uncompleted guild scheduled events reached (100)',
  }, // status assumed
  MAX_STICKERS: { code: 30039, status: 400, message: 'Maximum number of stickers reached' }, // status assumed
  MAX_PRUNE_REQUESTS: {
    code: 30040,
    status: 400,
    message: 'Maximum number of prune requests has been reached. Try again later',
  }, // status assumed
  GUILD_ALREADY_HAS_TEMPLATE: {
    code: 30031,
    status: 400,
    message: 'Guild already has a template',
  }, // status assumed
  MAX_WIDGET_SETTINGS_UPDATES: {
    code: 30042,
    status: 400,
    message: 'Maximum number of guild widget settings updates has been reached. Try again later',
  }, // status assumed
  MAX_SOUNDBOARD_SOUNDS: {
    code: 30045,
    status: 400,
    message: 'Maximum number of soundboard sounds reached',
  }, // status assumed
  MAX_OLD_MESSAGE_EDITS: {
    code: 30046,
    status: 400,
    message: 'Maximum number of edits to messages older than 1 hour reached. Try again later',
  }, // status assumed
  MAX_PINNED_FORUM_THREADS: {
    code: 30047,
    status: 400,
    message: 'Maximum number of pinned threads in a forum channel has been reached',
  }, // status assumed
  MAX_FORUM_TAGS: {
    code: 30048,
    status: 400,
    message: 'Maximum number of tags in a forum channel has been reached',
  }, // status assumed
  BITRATE_TOO_HIGH: {
    code: 30052,
    status: 400,
    message: 'Bitrate is too high for channel of this type',
  }, // status assumed
  MAX_PREMIUM_EMOJIS: {
    code: 30056,
    status: 400,
    message: 'Maximum number of premium emojis reached (25)',
  }, // status assumed
  MAX_GUILD_WEBHOOKS: {
    code: 30058,
    status: 400,
    message: 'Maximum number of webhooks per guild reached (1000)',
  }, // status assumed
  MAX_PERMISSION_OVERWRITES: {
    code: 30060,
    status: 400,
    message: 'Maximum number of channel permission overwrites reached (1000)',
  }, // status assumed
  GUILD_CHANNELS_TOO_LARGE: {
    code: 30061,
    status: 400,
    message: 'The channels for this guild are too large',
  }, // status assumed

  // 40xxx: request and account state.
  UNAUTHORIZED_CODE: {
    code: 40001,
    status: 401,
    message: 'Unauthorized. Provide a valid token and try again',
  }, // status assumed
  VERIFY_ACCOUNT: {
    code: 40002,
    status: 403,
    message: 'You need to verify your account in order to perform this action',
  }, // status assumed
  OPENING_DMS_TOO_FAST: {
    code: 40003,
    status: 429,
    message: 'You are opening direct messages too fast',
  }, // status assumed
  SEND_MESSAGES_TEMPORARILY_DISABLED: {
    code: 40004,
    status: 403,
    message: 'Send messages has been temporarily disabled',
  }, // status assumed
  REQUEST_ENTITY_TOO_LARGE: { code: 40005, status: 413, message: 'Request entity too large' }, // status assumed
  FEATURE_TEMPORARILY_DISABLED: {
    code: 40006,
    status: 400,
    message: 'This feature has been temporarily disabled server-side',
  }, // status assumed
  USER_BANNED: { code: 40007, status: 403, message: 'The user is banned from this guild' }, // status assumed
  ONLY_ONE_PARENT_CHANGE: {
    code: 40009,
    status: 400,
    message: 'Only one channel can have a parent_id modified at a time',
  }, // status assumed
  CONNECTION_REVOKED: { code: 40012, status: 400, message: 'Connection has been revoked' }, // status assumed
  TARGET_USER_NOT_IN_VOICE: {
    code: 40032,
    status: 400,
    message: 'Target user is not connected to voice',
  }, // status assumed
  MESSAGE_ALREADY_CROSSPOSTED: {
    code: 40033,
    status: 400,
    message: 'This message has already been crossposted',
  }, // status assumed
  APPLICATION_COMMAND_NAME_EXISTS: {
    code: 40041,
    status: 400,
    message: 'An application command with that name already exists',
  }, // status assumed
  INTERACTION_FAILED_TO_SEND: {
    code: 40043,
    status: 400,
    message: 'Application interaction failed to send',
  }, // status assumed
  CANNOT_SEND_IN_FORUM_CHANNEL: {
    code: 40058,
    status: 400,
    message: 'Cannot send a message in a forum channel',
  }, // status assumed
  INTERACTION_ALREADY_ACKNOWLEDGED: {
    code: 40060,
    status: 400,
    message: 'Interaction has already been acknowledged.',
  }, // status assumed
  TAG_NAMES_MUST_BE_UNIQUE: { code: 40061, status: 400, message: 'Tag names must be unique' }, // status assumed
  SERVICE_RESOURCE_RATE_LIMITED: {
    code: 40062,
    status: 429,
    message: 'Service resource is being rate limited',
  }, // status assumed
  NO_TAGS_FOR_NON_MODERATORS: {
    code: 40066,
    status: 400,
    message: 'There are no tags available that can be set by non-moderators',
  }, // status assumed
  TAG_REQUIRED: {
    code: 40067,
    status: 400,
    message: 'A tag is required to create a forum post in this channel',
  }, // status assumed
  ONLY_CONSUMABLE_SKUS_CONSUMABLE: {
    code: 40018,
    status: 400,
    message: 'Only consumable SKUs can be consumed',
  }, // status assumed
  ONLY_SANDBOX_ENTITLEMENTS_DELETABLE: {
    code: 40019,
    status: 400,
    message: 'You can only delete sandbox entitlements.',
  }, // status assumed
  ENTITLEMENT_ALREADY_GRANTED: {
    code: 40074,
    status: 400,
    message: 'An entitlement has already been granted for this resource',
  }, // status assumed
  MAX_FOLLOW_UP_MESSAGES: {
    code: 40094,
    status: 400,
    message: 'This interaction has hit the maximum number of follow up messages',
  }, // status assumed

  // 50xxx: access, permissions and invalid input.
  MISSING_ACCESS: { code: 50001, status: 403, message: 'Missing Access' }, // status assumed
  INVALID_ACCOUNT_TYPE: { code: 50002, status: 400, message: 'Invalid account type' }, // status assumed
  CANNOT_EXECUTE_ON_DM: {
    code: 50003,
    status: 400,
    message: 'Cannot execute action on a DM channel',
  }, // status assumed
  GUILD_WIDGET_DISABLED: { code: 50004, status: 400, message: 'Guild widget disabled' }, // status assumed
  CANNOT_EDIT_OTHER_USERS_MESSAGE: {
    code: 50005,
    status: 403,
    message: 'Cannot edit a message authored by another user',
  }, // status assumed
  CANNOT_SEND_EMPTY_MESSAGE: { code: 50006, status: 400, message: 'Cannot send an empty message' }, // status assumed
  CANNOT_SEND_MESSAGES_TO_USER: {
    code: 50007,
    status: 403,
    message: 'Cannot send messages to this user',
  }, // status assumed
  CANNOT_SEND_IN_NON_TEXT_CHANNEL: {
    code: 50008,
    status: 400,
    message: 'Cannot send messages in a non-text channel',
  }, // status assumed
  CHANNEL_VERIFICATION_TOO_HIGH: {
    code: 50009,
    status: 403,
    message: 'Channel verification level is too high for you to gain access',
  }, // status assumed
  OAUTH2_APPLICATION_HAS_NO_BOT: {
    code: 50010,
    status: 400,
    message: 'OAuth2 application does not have a bot',
  }, // status assumed
  OAUTH2_APPLICATION_LIMIT: {
    code: 50011,
    status: 400,
    message: 'OAuth2 application limit reached',
  }, // status assumed
  INVALID_OAUTH2_STATE: { code: 50012, status: 400, message: 'Invalid OAuth2 state' }, // status assumed
  MISSING_PERMISSIONS: { code: 50013, status: 403, message: 'Missing Permissions' }, // status assumed
  INVALID_AUTHENTICATION_TOKEN: {
    code: 50014,
    status: 401,
    message: 'Invalid authentication token',
  }, // status assumed
  TOO_FEW_OR_TOO_MANY_MESSAGES_TO_DELETE: {
    code: 50016,
    status: 400,
    message:
      'Provided too few or too many messages to delete. Must provide at least 2 and fewer than 100 messages to delete',
  }, // status assumed
  INVALID_MFA_LEVEL: { code: 50017, status: 400, message: 'Invalid MFA Level' }, // status assumed
  MESSAGE_PIN_CHANNEL_MISMATCH: {
    code: 50019,
    status: 400,
    message: 'A message can only be pinned to the channel it was sent in',
  }, // status assumed
  INVITE_CODE_INVALID_OR_TAKEN: {
    code: 50020,
    status: 400,
    message: 'Invite code was either invalid or taken',
  }, // status assumed
  CANNOT_EXECUTE_ON_SYSTEM_MESSAGE: {
    code: 50021,
    status: 400,
    message: 'Cannot execute action on a system message',
  }, // status assumed
  CANNOT_EXECUTE_ON_CHANNEL_TYPE: {
    code: 50024,
    status: 400,
    message: 'Cannot execute action on this channel type',
  }, // status assumed
  // HTTP 403 is documented for the provisional-account merge flow
  // (docs/platform-notes.md#error-codes-and-statuses).
  INVALID_OAUTH2_ACCESS_TOKEN: {
    code: 50025,
    status: 403,
    message: 'Invalid OAuth2 access token provided',
  },
  MISSING_OAUTH2_SCOPE: { code: 50026, status: 403, message: 'Missing required OAuth2 scope' }, // status assumed
  INVALID_WEBHOOK_TOKEN: { code: 50027, status: 401, message: 'Invalid Webhook Token' }, // status assumed
  INVALID_ROLE: { code: 50028, status: 400, message: 'Invalid role' }, // status assumed
  INVALID_RECIPIENTS: { code: 50033, status: 400, message: 'Invalid Recipient(s)' }, // status assumed
  MESSAGES_TOO_OLD_TO_BULK_DELETE: {
    code: 50034,
    status: 400,
    message: 'A message provided was too old to bulk delete',
  }, // status assumed
  INVALID_FORM_BODY: { code: 50035, status: 400, message: 'Invalid Form Body' }, // status assumed
  INVITE_ACCEPTED_TO_GUILD_BOT_NOT_IN: {
    code: 50036,
    status: 400,
    message: "An invite was accepted to a guild the application's bot is not in",
  }, // status assumed
  INVALID_ACTIVITY_ACTION: { code: 50039, status: 400, message: 'Invalid Activity Action' }, // status assumed
  INVALID_API_VERSION_CODE: { code: 50041, status: 400, message: 'Invalid API version provided' }, // status assumed
  FILE_TOO_LARGE: {
    code: 50045,
    status: 400,
    message: 'File uploaded exceeds the maximum size',
  }, // status assumed
  INVALID_FILE_UPLOADED: { code: 50046, status: 400, message: 'Invalid file uploaded' }, // status assumed
  INVALID_GUILD: { code: 50055, status: 400, message: 'Invalid Guild' }, // status assumed
  INVALID_SKU: { code: 50057, status: 400, message: 'Invalid SKU' }, // status assumed
  INVALID_REQUEST_ORIGIN: { code: 50067, status: 400, message: 'Invalid request origin' }, // status assumed
  INVALID_MESSAGE_TYPE: { code: 50068, status: 400, message: 'Invalid message type' }, // status assumed
  CANNOT_MODIFY_SYSTEM_WEBHOOK: {
    code: 50073,
    status: 400,
    message: 'Cannot modify a system webhook',
  }, // status assumed
  CANNOT_DELETE_COMMUNITY_CHANNEL: {
    code: 50074,
    status: 400,
    message: 'Cannot delete a channel required for Community guilds',
  }, // status assumed
  CANNOT_EDIT_MESSAGE_STICKERS: {
    code: 50080,
    status: 400,
    message: 'Cannot edit stickers within a message',
  }, // status assumed
  INVALID_STICKER: { code: 50081, status: 400, message: 'Invalid sticker sent' }, // status assumed
  ARCHIVED_THREAD: {
    code: 50083,
    status: 400,
    message:
      'Tried to perform an operation on an archived thread, such as editing a message or adding a user to the thread',
  }, // status assumed
  INVALID_THREAD_NOTIFICATION_SETTINGS: {
    code: 50084,
    status: 400,
    message: 'Invalid thread notification settings',
  }, // status assumed
  BEFORE_EARLIER_THAN_THREAD_CREATION: {
    code: 50085,
    status: 400,
    message: '`before` value is earlier than the thread creation date',
  }, // status assumed
  COMMUNITY_CHANNELS_MUST_BE_TEXT: {
    code: 50086,
    status: 400,
    message: 'Community server channels must be text channels',
  }, // status assumed
  EVENT_ENTITY_TYPE_MISMATCH: {
    code: 50091,
    status: 400,
    message:
      'The entity type of the event is different from the entity you are trying to start the event for',
  }, // status assumed
  SERVER_NOT_AVAILABLE_IN_LOCATION: {
    code: 50095,
    status: 403,
    message: 'This server is not available in your location',
  }, // status assumed
  MONETIZATION_REQUIRED: {
    code: 50097,
    status: 400,
    message: 'This server needs monetization enabled in order to perform this action',
  }, // status assumed
  MORE_BOOSTS_REQUIRED: {
    code: 50101,
    status: 400,
    message: 'This server needs more boosts to perform this action',
  }, // status assumed
  INVALID_JSON: { code: 50109, status: 400, message: 'The request body contains invalid JSON.' }, // status assumed
  INVALID_FILE: { code: 50110, status: 400, message: 'The provided file is invalid.' }, // status assumed
  INVALID_FILE_TYPE: { code: 50123, status: 400, message: 'The provided file type is invalid.' }, // status assumed
  FILE_DURATION_TOO_LONG: {
    code: 50124,
    status: 400,
    message: 'The provided file duration exceeds maximum of 5.2 seconds.',
  }, // status assumed
  OWNER_CANNOT_BE_PENDING: {
    code: 50131,
    status: 400,
    message: 'Owner cannot be pending member',
  }, // status assumed
  OWNERSHIP_TO_BOT: {
    code: 50132,
    status: 400,
    message: 'Ownership cannot be transferred to a bot user',
  }, // status assumed
  ASSET_RESIZE_FAILED: {
    code: 50138,
    status: 400,
    message: 'Failed to resize asset below the maximum size: 262144',
  }, // status assumed
  UPLOADED_FILE_NOT_FOUND: { code: 50146, status: 400, message: 'Uploaded file not found.' }, // status assumed
  INVALID_EMOJI: { code: 50151, status: 400, message: 'The specified emoji is invalid' }, // status assumed
  VOICE_MESSAGE_ADDITIONAL_CONTENT: {
    code: 50159,
    status: 400,
    message: 'Voice messages do not support additional content.',
  }, // status assumed
  VOICE_MESSAGE_SINGLE_AUDIO_ATTACHMENT: {
    code: 50160,
    status: 400,
    message: 'Voice messages must have a single audio attachment.',
  }, // status assumed
  VOICE_MESSAGE_METADATA_REQUIRED: {
    code: 50161,
    status: 400,
    message: 'Voice messages must have supporting metadata.',
  }, // status assumed
  VOICE_MESSAGE_CANNOT_BE_EDITED: {
    code: 50162,
    status: 400,
    message: 'Voice messages cannot be edited.',
  }, // status assumed
  CANNOT_SEND_VOICE_MESSAGES_IN_CHANNEL: {
    code: 50173,
    status: 403,
    message: 'You cannot send voice messages in this channel.',
  }, // status assumed
  USER_ACCOUNT_NOT_VERIFIED: {
    code: 50178,
    status: 403,
    message: 'The user account must first be verified',
  }, // status assumed
  INVALID_FILE_DURATION: {
    code: 50192,
    status: 400,
    message: 'The provided file does not have a valid duration.',
  }, // status assumed
  // HTTP 400 is documented for unmerging a provisional account
  // (docs/platform-notes.md#error-codes-and-statuses).
  INVALID_USER_TYPE: { code: 50229, status: 400, message: 'Invalid user type' },
  CANNOT_SEND_MESSAGES_NO_MUTUAL_GUILDS: {
    code: 50278,
    status: 403,
    message: 'Cannot send messages to this user due to having no mutual guilds',
  }, // status assumed
  CANNOT_SEND_STICKER: {
    code: 50600,
    status: 403,
    message: 'You do not have permission to send this sticker.',
  }, // status assumed

  // 60xxx–240xxx: feature-specific errors.
  TWO_FACTOR_REQUIRED: {
    code: 60003,
    status: 403,
    message: 'Two factor is required for this operation',
  }, // status assumed
  FRIEND_REQUEST_BLOCKED: { code: 80001, status: 400, message: 'Friend request blocked' }, // status assumed
  BOTS_CANNOT_HAVE_FRIENDS: { code: 80002, status: 400, message: 'Bots cannot have friends' }, // status assumed
  CANNOT_FRIEND_SELF: {
    code: 80003,
    status: 400,
    message: 'Cannot send friend request to self',
  }, // status assumed
  NO_USERS_WITH_TAG: { code: 80004, status: 400, message: 'No users with DiscordTag exist' }, // status assumed
  NEED_TO_BE_FRIENDS: {
    code: 80006,
    status: 400,
    message: 'You need to be friends in order to make this change',
  }, // status assumed
  ALREADY_FRIENDS: { code: 80007, status: 400, message: 'You are already friends with that user' }, // status assumed
  NO_COMMON_APPLICATION_AUTHORIZATION: {
    code: 80009,
    status: 400,
    message: 'Users have no common application authorization',
  }, // status assumed
  REACTION_BLOCKED: { code: 90001, status: 403, message: 'Reaction was blocked' }, // status assumed
  CANNOT_USE_BURST_REACTIONS: {
    code: 90002,
    status: 403,
    message: 'User cannot use burst reactions',
  }, // status assumed
  // HTTP 202, not 4xx: the body also carries documents_indexed and retry_after
  // (docs/platform-notes.md#error-body).
  SEARCH_INDEX_NOT_READY: {
    code: 110000,
    status: 202,
    message: 'Index not yet available. Try again later',
  },
  API_RESOURCE_OVERLOADED: {
    code: 130000,
    status: 503,
    message: 'API resource is currently overloaded. Try again a little later',
  }, // status assumed
  STAGE_ALREADY_OPEN: { code: 150006, status: 400, message: 'Stage already open' }, // status assumed
  CANNOT_REPLY_WITHOUT_READ_HISTORY: {
    code: 160002,
    status: 403,
    message: 'Cannot reply without permission to read message history',
  }, // status assumed
  THREAD_ALREADY_CREATED: {
    code: 160004,
    status: 400,
    message: 'A thread has already been created for this message',
  }, // status assumed
  THREAD_LOCKED: { code: 160005, status: 400, message: 'Thread is locked' }, // status assumed
  MAX_ACTIVE_THREADS: {
    code: 160006,
    status: 400,
    message: 'Maximum number of active threads reached',
  }, // status assumed
  MAX_ACTIVE_ANNOUNCEMENT_THREADS: {
    code: 160007,
    status: 400,
    message: 'Maximum number of active announcement threads reached',
  }, // status assumed
  CANNOT_REFERENCE_WITHOUT_READ_HISTORY: {
    code: 160009,
    status: 403,
    message: 'Cannot reference a message without permission to read message history',
  }, // status assumed
  NSFW_REFERENCE_NOT_ALLOWED: {
    code: 160010,
    status: 400,
    message: 'Cannot reference a message from an NSFW channel in a non-NSFW channel',
  }, // status assumed
  // Message text from the platform; its HTTP status is not stated anywhere
  // (docs/platform-notes.md#error-codes-and-statuses).
  CANNOT_FORWARD_UNREADABLE_MESSAGE: {
    code: 160014,
    status: 403,
    message: 'You cannot forward a message whose content you cannot read.',
  }, // status assumed
  AUTOMOD_MESSAGE_BLOCKED: {
    code: 200000,
    status: 400,
    message: 'Message was blocked by automatic moderation',
  }, // status assumed
  AUTOMOD_TITLE_BLOCKED: {
    code: 200001,
    status: 400,
    message: 'Title was blocked by automatic moderation',
  }, // status assumed
  WEBHOOK_FORUM_THREAD_REQUIRED: {
    code: 220001,
    status: 400,
    message: 'Webhooks posted to forum channels must have a thread_name or thread_id',
  }, // status assumed
  WEBHOOK_FORUM_THREAD_NAME_AND_ID: {
    code: 220002,
    status: 400,
    message: 'Webhooks posted to forum channels cannot have both a thread_name and thread_id',
  }, // status assumed
  WEBHOOK_THREADS_ONLY_IN_FORUMS: {
    code: 220003,
    status: 400,
    message: 'Webhooks can only create threads in forum channels',
  }, // status assumed
  WEBHOOK_SERVICES_NOT_IN_FORUMS: {
    code: 220004,
    status: 400,
    message: 'Webhook services cannot be used in forum channels',
  }, // status assumed
  HARMFUL_LINK_BLOCKED: {
    code: 240000,
    status: 400,
    message: 'Message blocked by harmful links filter',
  }, // status assumed

  // 340xxx–520xxx: account, guild and poll restrictions.
  JOINING_SERVERS_LIMITED: {
    code: 340015,
    status: 403,
    message: 'Access to joining new servers has been limited for the user',
  }, // status assumed
  CANNOT_ENABLE_ONBOARDING: {
    code: 350000,
    status: 400,
    message: 'Cannot enable onboarding, requirements are not met',
  }, // status assumed
  CANNOT_UPDATE_ONBOARDING: {
    code: 350001,
    status: 400,
    message: 'Cannot update onboarding while below requirements',
  }, // status assumed
  FILE_UPLOADS_LIMITED: {
    code: 400001,
    status: 403,
    message: 'Access to file uploads has been limited for this guild',
  }, // status assumed
  FAILED_TO_BAN_USERS: { code: 500000, status: 400, message: 'Failed to ban users' }, // status assumed
  POLL_VOTING_BLOCKED: { code: 520000, status: 403, message: 'Poll voting blocked' }, // status assumed
  POLL_EXPIRED: { code: 520001, status: 400, message: 'Poll expired' }, // status assumed
  INVALID_POLL_CHANNEL_TYPE: {
    code: 520002,
    status: 400,
    message: 'Invalid channel type for poll creation',
  }, // status assumed
  CANNOT_EDIT_POLL_MESSAGE: { code: 520003, status: 400, message: 'Cannot edit a poll message' }, // status assumed
  CANNOT_USE_POLL_EMOJI: {
    code: 520004,
    status: 400,
    message: 'Cannot use an emoji included with the poll',
  }, // status assumed
  CANNOT_EXPIRE_NON_POLL_MESSAGE: {
    code: 520006,
    status: 400,
    message: 'Cannot expire a non-poll message',
  }, // status assumed

  // 530xxx: provisional accounts and OIDC (docs/provisional-accounts.md,
  // docs/platform-notes.md#error-codes-and-statuses).
  PROVISIONAL_ACCOUNTS_NOT_ENABLED: {
    code: 530000,
    status: 403,
    message: 'Your application has not been granted the permission to use provisional accounts.',
  }, // status assumed
  ID_TOKEN_EXPIRED: {
    code: 530001,
    status: 400,
    message:
      'The ID token JWT you have provided is expired. You will need to get another one issued from the identity provider.',
  }, // status assumed
  ID_TOKEN_ISSUER_MISMATCH: {
    code: 530002,
    status: 400,
    message:
      'The issuer in the ID token JWT you have provided does not match what you have configured.',
  }, // status assumed
  ID_TOKEN_AUDIENCE_MISMATCH: {
    code: 530003,
    status: 400,
    message:
      'The audience in the ID token JWT you have provided does not match the audience you specified in your OIDC configuration. Either update your configuration or pass in an ID token that was issued to your application.',
  }, // status assumed
  ID_TOKEN_ISSUED_TOO_LONG_AGO: {
    code: 530004,
    status: 400,
    message:
      'The ID token you provided was issued too long ago. ID tokens issued more than a week ago are not accepted. You will need to get a new ID token issued from the identity provider.',
  }, // status assumed
  USERNAME_GENERATION_FAILED: {
    code: 530006,
    status: 500,
    message:
      'Failed to generate a unique username within the allotted time. This is not a terminal error, and should resolve itself upon a retry.',
  }, // status assumed
  INVALID_CLIENT_SECRET: {
    code: 530007,
    status: 401,
    message:
      'Your client secret is invalid. Double check what you are sending or regenerate your client secret.',
  }, // status assumed
  OIDC_CONFIGURATION_NOT_FOUND: {
    code: 530008,
    status: 400,
    message: 'OIDC configuration not found',
  }, // status assumed
  OIDC_JWKS_NOT_FOUND: { code: 530009, status: 400, message: 'OIDC JWKS not found' }, // status assumed
  USER_ACCOUNT_NOT_PROVISIONAL: {
    code: 530010,
    status: 400,
    message: 'User account non-provisional',
  }, // status assumed
  INVALID_MERGE_SOURCE: { code: 530014, status: 400, message: 'Invalid merge source' },
  INVALID_MERGE_DESTINATION: { code: 530016, status: 400, message: 'Invalid merge destination' },
  MERGE_SOURCE_USER_BANNED: { code: 530017, status: 400, message: 'Merge source user is banned' },
  INVALID_OIDC_JWT: { code: 530020, status: 400, message: 'Invalid OIDC JWT token' }, // status assumed
  TOO_MANY_APPLICATION_IDENTITIES: {
    code: 530023,
    status: 400,
    message: 'Too many application identities',
  },
  MISSING_KID_HEADER: { code: 530027, status: 400, message: 'Missing kid header' }, // status assumed
  // HTTP 423 without a code is documented for a merge whose resource is locked
  // (docs/platform-notes.md#error-codes-and-statuses).
  RESOURCE_LOCKED: { code: 0, status: 423, message: 'Resource is locked, retry the request' },
} as const satisfies Record<string, ErrorDefinition>;

/** The name of an entry of {@link ERRORS}. */
export type ErrorName = keyof typeof ERRORS;

/**
 * One leaf error of a form-validation failure.
 *
 * @see docs/platform-notes.md#error-body
 */
export interface FieldError {
  /** A leaf code such as `BASE_TYPE_REQUIRED` (see {@link FIELD_ERROR_CODES}). */
  code: string;
  /** A human-readable message. */
  message: string;
}

/**
 * The errors of one field: a node of a {@link FieldErrorTree} that has `_errors`. It is itself a
 * tree, because a field can have errors of its own and nested fields with errors beside them. A
 * request-level error puts `_errors` directly under `errors`.
 *
 * @see docs/platform-notes.md#error-body
 */
export interface FieldErrorLeaf extends FieldErrorTree {
  /** The errors of this field, in order. */
  _errors: FieldError[];
}

/**
 * The nested `errors` object of an error body. It follows the JSON path of the offending field;
 * array indexes appear as string keys (`'0'`). Leaves are {@link FieldErrorLeaf} objects.
 *
 * With `noPropertyAccessFromIndexSignature` on, read it with brackets: `tree['content']`.
 *
 * @example
 * ```ts
 * const errors: FieldErrorTree = {
 *   content: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
 *   embeds: { '0': { title: { _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: '…' }] } } },
 * };
 * ```
 * @see docs/platform-notes.md#error-body
 */
export interface FieldErrorTree {
  [key: string]: FieldErrorTree | FieldError[];
}

/**
 * The JSON body of an error response: `{ code, message, errors? }`, the shape client libraries
 * parse. The spec leaves the general shape unstated, so this is the platform's known shape.
 *
 * @see docs/platform-notes.md#error-body
 */
export interface ErrorBody {
  /** The JSON error code (see {@link ERRORS}); `0` for a general error. */
  code: number;
  /** A human-readable message. */
  message: string;
  /** Per-field errors, present on form-validation failures (code 50035). */
  errors?: FieldErrorTree;
}

/**
 * The JSON body of an HTTP 429 response.
 *
 * @see docs/platform-notes.md#rate-limits
 */
export interface RateLimitBody {
  /** A human-readable message, such as `'You are being rate limited.'`. */
  message: string;
  /** Seconds to wait before retrying (may be fractional). */
  retry_after: number;
  /** Whether the global rate limit (not a per-route one) was hit. */
  global: boolean;
  /** A JSON error code, when the limit has one (for example 20028 or 40062). */
  code?: number;
}

/**
 * The leaf codes of form-validation errors (the `code` of a {@link FieldError}), each mapped to a
 * default English message template. Placeholders in braces (`{min}`, `{max}`, `{value}`,
 * `{type}`, `{choices}`, `{scheme}`, `{schemes}`) are filled in by whoever builds the error.
 *
 * The codes are the platform's; the templates follow its wording where it is known (for example
 * `'This field is required'` and `'Must be 2000 or fewer in length.'`). Clients read the code,
 * not the message. A malformed snowflake is reported as `NUMBER_TYPE_COERCE` with `{type}` =
 * `snowflake`.
 *
 * @see docs/platform-notes.md#error-body
 */
export const FIELD_ERROR_CODES = {
  BASE_TYPE_REQUIRED: 'This field is required',
  BASE_TYPE_BAD_LENGTH: 'Must be between {min} and {max} in length.',
  BASE_TYPE_MIN_LENGTH: 'Must be {min} or more in length.',
  BASE_TYPE_MAX_LENGTH: 'Must be {max} or fewer in length.',
  BASE_TYPE_CHOICES: 'Value must be one of {choices}.',
  NUMBER_TYPE_COERCE: 'Value "{value}" is not {type}.',
  NUMBER_TYPE_MIN: 'int value should be greater than or equal to {min}.',
  NUMBER_TYPE_MAX: 'int value should be less than or equal to {max}.',
  STRING_TYPE_CONVERT: 'Could not interpret "{value}" as string.',
  STRING_TYPE_REGEX: 'String value did not match validation regex.',
  BOOLEAN_TYPE_COERCE: 'Value "{value}" is not bool.',
  ENUM_TYPE_COERCE: 'Value "{value}" is not a valid enum value.',
  DICT_TYPE_CONVERT: 'Only dictionaries may be used in a DictType',
  MODEL_TYPE_CONVERT: 'Only dictionaries may be used in a ModelType',
  LIST_TYPE_CONVERT: 'Only iterables may be used in a ListType',
  LIST_ITEM_VALUE_REQUIRED: 'List item values of ModelType are required',
  DATE_TYPE_PARSE: 'Could not parse {value}. Should be ISO8601.',
  EMAIL_TYPE_INVALID_EMAIL: 'Not a well formed email address.',
  URL_TYPE_INVALID_URL: 'Not a well formed URL.',
  URL_TYPE_INVALID_SCHEME: 'Scheme "{scheme}" is not supported. Scheme must be one of ({schemes}).',
  BINARY_TYPE_MAX_SIZE: 'File cannot be larger than {max} kb.',
} as const satisfies Record<string, string>;

/** A form-validation leaf code: a key of {@link FIELD_ERROR_CODES}. */
export type FieldErrorCode = keyof typeof FIELD_ERROR_CODES;

const NAME_BY_CODE: ReadonlyMap<number, ErrorName> = (() => {
  const byCode = new Map<number, ErrorName>();
  for (const name of Object.keys(ERRORS) as ErrorName[]) {
    const { code } = ERRORS[name];
    if (code !== 0 && !byCode.has(code)) byCode.set(code, name);
  }
  return byCode;
})();

/**
 * Looks an error up by its JSON code, for example to name an error received from another server.
 *
 * @param code - A JSON error code.
 * @returns The name of the first {@link ERRORS} entry with that code, or `undefined` when no entry
 *   has it. Code `0` is shared by several general errors and is therefore always `undefined`.
 * @example
 * ```ts
 * errorByCode(10003); // 'UNKNOWN_CHANNEL'
 * errorByCode(0); // undefined
 * ```
 */
export function errorByCode(code: number): ErrorName | undefined {
  return NAME_BY_CODE.get(code);
}
