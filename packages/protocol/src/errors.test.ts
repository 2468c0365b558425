import { RESTJSONErrorCodes } from 'discord-api-types/v10';
import { describe, expect, expectTypeOf, it } from 'vitest';
import {
  ERRORS,
  FIELD_ERROR_CODES,
  errorByCode,
  type ErrorBody,
  type ErrorName,
  type FieldError,
  type FieldErrorLeaf,
  type FieldErrorTree,
} from './errors.js';

const entries = Object.entries(ERRORS) as [ErrorName, (typeof ERRORS)[ErrorName]][];

/**
 * Codes from the platform docs that discord-api-types does not carry
 * (docs/platform-notes.md#error-codes-and-statuses).
 */
const DOCS_ONLY_CODES = new Set([
  50229, 530008, 530009, 530010, 530014, 530016, 530017, 530020, 530023, 530027,
  // The user client's relationship codes (docs/platform-notes.md#error-codes-and-statuses).
  80001, 80002, 80003, 80006, 80007, 80009,
]);

describe('ERRORS', () => {
  it('gives every non-zero code to exactly one entry', () => {
    const codes = entries.map(([, e]) => e.code).filter((code) => code !== 0);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('uses only codes that the reference library or the platform docs define', () => {
    const reference = new Set<number>(
      Object.values(RESTJSONErrorCodes).filter((v): v is number => typeof v === 'number'),
    );
    const unknown = entries
      .map(([name, e]) => [name, e.code] as const)
      .filter(([, code]) => !reference.has(code) && !DOCS_ONLY_CODES.has(code));
    expect(unknown).toEqual([]);
  });

  it.each([
    ['UNKNOWN_ACCOUNT', RESTJSONErrorCodes.UnknownAccount],
    ['UNKNOWN_APPLICATION', RESTJSONErrorCodes.UnknownApplication],
    ['UNKNOWN_CHANNEL', RESTJSONErrorCodes.UnknownChannel],
    ['UNKNOWN_GUILD', RESTJSONErrorCodes.UnknownGuild],
    ['UNKNOWN_INTEGRATION', RESTJSONErrorCodes.UnknownIntegration],
    ['UNKNOWN_INVITE', RESTJSONErrorCodes.UnknownInvite],
    ['UNKNOWN_MEMBER', RESTJSONErrorCodes.UnknownMember],
    ['UNKNOWN_MESSAGE', RESTJSONErrorCodes.UnknownMessage],
    ['UNKNOWN_OVERWRITE', RESTJSONErrorCodes.UnknownPermissionOverwrite],
    ['UNKNOWN_ROLE', RESTJSONErrorCodes.UnknownRole],
    ['UNKNOWN_TOKEN', RESTJSONErrorCodes.UnknownToken],
    ['UNKNOWN_USER', RESTJSONErrorCodes.UnknownUser],
    ['UNKNOWN_EMOJI', RESTJSONErrorCodes.UnknownEmoji],
    ['UNKNOWN_WEBHOOK', RESTJSONErrorCodes.UnknownWebhook],
    ['UNKNOWN_BAN', RESTJSONErrorCodes.UnknownBan],
    ['UNKNOWN_LOBBY', RESTJSONErrorCodes.UnknownLobby],
    ['UNKNOWN_INTERACTION', RESTJSONErrorCodes.UnknownInteraction],
    ['UNKNOWN_GUILD_SCHEDULED_EVENT', RESTJSONErrorCodes.UnknownGuildScheduledEvent],
    ['UNKNOWN_INVITE_TARGET_USERS_JOB', RESTJSONErrorCodes.UnknownInviteTargetUsersJob],
    ['UNKNOWN_INVITE_TARGET_USERS', RESTJSONErrorCodes.UnknownInviteTargetUsers],
    ['BOTS_CANNOT_USE_ENDPOINT', RESTJSONErrorCodes.BotsCannotUseThisEndpoint],
    ['ONLY_BOTS_CAN_USE_ENDPOINT', RESTJSONErrorCodes.OnlyBotsCanUseThisEndpoint],
    ['SLOWMODE_RATE_LIMIT', RESTJSONErrorCodes.ActionCannotBePerformedDueToSlowmodeRateLimit],
    ['CHANNEL_WRITE_RATE_LIMIT', RESTJSONErrorCodes.ChannelWriteRateLimit],
    ['MAX_GUILDS', RESTJSONErrorCodes.MaximumNumberOfGuildsReached],
    ['MAX_PINS', RESTJSONErrorCodes.MaximumNumberOfPinsReachedForTheChannel],
    ['MAX_ROLES', RESTJSONErrorCodes.MaximumNumberOfGuildRolesReached],
    ['MAX_REACTIONS', RESTJSONErrorCodes.MaximumNumberOfReactionsReached],
    ['MAX_CHANNELS', RESTJSONErrorCodes.MaximumNumberOfGuildChannelsReached],
    ['MAX_INVITES', RESTJSONErrorCodes.MaximumNumberOfInvitesReached],
    ['MAX_ANIMATED_EMOJIS', RESTJSONErrorCodes.MaximumNumberOfAnimatedEmojisReached],
    ['UNAUTHORIZED_CODE', RESTJSONErrorCodes.Unauthorized],
    ['VERIFY_ACCOUNT', RESTJSONErrorCodes.VerifyYourAccount],
    ['REQUEST_ENTITY_TOO_LARGE', RESTJSONErrorCodes.RequestEntityTooLarge],
    ['USER_BANNED', RESTJSONErrorCodes.UserBannedFromThisGuild],
    ['INTERACTION_ALREADY_ACKNOWLEDGED', RESTJSONErrorCodes.InteractionHasAlreadyBeenAcknowledged],
    ['SERVICE_RESOURCE_RATE_LIMITED', RESTJSONErrorCodes.ServiceResourceIsBeingRateLimited],
    ['MISSING_ACCESS', RESTJSONErrorCodes.MissingAccess],
    ['INVALID_ACCOUNT_TYPE', RESTJSONErrorCodes.InvalidAccountType],
    ['CANNOT_EXECUTE_ON_DM', RESTJSONErrorCodes.CannotExecuteActionOnDMChannel],
    ['CANNOT_EDIT_OTHER_USERS_MESSAGE', RESTJSONErrorCodes.CannotEditMessageAuthoredByAnotherUser],
    ['CANNOT_SEND_EMPTY_MESSAGE', RESTJSONErrorCodes.CannotSendAnEmptyMessage],
    ['CANNOT_SEND_MESSAGES_TO_USER', RESTJSONErrorCodes.CannotSendMessagesToThisUser],
    ['MISSING_PERMISSIONS', RESTJSONErrorCodes.MissingPermissions],
    ['INVALID_AUTHENTICATION_TOKEN', RESTJSONErrorCodes.InvalidToken],
    [
      'TOO_FEW_OR_TOO_MANY_MESSAGES_TO_DELETE',
      RESTJSONErrorCodes.ProvidedTooFewOrTooManyMessagesToDelete,
    ],
    [
      'MESSAGE_PIN_CHANNEL_MISMATCH',
      RESTJSONErrorCodes.MessageCanOnlyBePinnedInTheChannelItWasSentIn,
    ],
    ['INVALID_OAUTH2_ACCESS_TOKEN', RESTJSONErrorCodes.InvalidOAuth2AccessToken],
    [
      'MESSAGES_TOO_OLD_TO_BULK_DELETE',
      RESTJSONErrorCodes.OneOfTheMessagesProvidedWasTooOldForBulkDelete,
    ],
    ['INVALID_FORM_BODY', RESTJSONErrorCodes.InvalidFormBodyOrContentType],
    [
      'INVITE_ACCEPTED_TO_GUILD_BOT_NOT_IN',
      RESTJSONErrorCodes.InviteAcceptedToGuildWithoutTheBotBeingIn,
    ],
    ['INVALID_API_VERSION_CODE', RESTJSONErrorCodes.InvalidAPIVersion],
    ['FILE_TOO_LARGE', RESTJSONErrorCodes.FileUploadedExceedsMaximumSize],
    ['INVALID_FILE_UPLOADED', RESTJSONErrorCodes.InvalidFileUploaded],
    ['INVALID_JSON', RESTJSONErrorCodes.RequestBodyContainsInvalidJSON],
    ['TWO_FACTOR_REQUIRED', RESTJSONErrorCodes.TwoFactorAuthenticationIsRequired],
    ['SEARCH_INDEX_NOT_READY', RESTJSONErrorCodes.IndexNotYetAvailable],
    [
      'CANNOT_FORWARD_UNREADABLE_MESSAGE',
      RESTJSONErrorCodes.CannotForwardMessageWithUnreadableContent,
    ],
    [
      'PROVISIONAL_ACCOUNTS_NOT_ENABLED',
      RESTJSONErrorCodes.ProvisionalAccountsPermissionNotGranted,
    ],
    ['ID_TOKEN_EXPIRED', RESTJSONErrorCodes.IdTokenJWTExpired],
    ['INVALID_CLIENT_SECRET', RESTJSONErrorCodes.InvalidClientSecret],
  ] as const)('%s has the reference code %i', (name, code) => {
    expect(ERRORS[name].code).toBe(code);
  });

  it('answers every Unknown* error with 404 and a 10xxx code', () => {
    const unknown = entries.filter(([name]) => name.startsWith('UNKNOWN_'));
    expect(unknown.length).toBeGreaterThan(20);
    for (const [name, e] of unknown) {
      expect({ name, status: e.status }).toEqual({ name, status: 404 });
      expect(Math.floor(e.code / 1000)).toBe(10);
    }
  });

  it('keeps every status a real HTTP status and every message non-empty', () => {
    for (const [, e] of entries) {
      expect(Number.isInteger(e.status) && e.status >= 200 && e.status <= 599).toBe(true);
      expect(e.message.trim()).not.toBe('');
    }
  });

  it('carries the documented statuses and wording', () => {
    expect(ERRORS.SEARCH_INDEX_NOT_READY.status).toBe(202);
    expect(ERRORS.MERGE_SOURCE_USER_BANNED).toEqual({
      code: 530017,
      status: 400,
      message: 'Merge source user is banned',
    });
    expect(ERRORS.INVALID_USER_TYPE).toMatchObject({ code: 50229, status: 400 });
    expect(ERRORS.INVALID_OAUTH2_ACCESS_TOKEN.status).toBe(403);
    for (const code of [530014, 530016, 530023]) {
      const name = errorByCode(code);
      expect(name && ERRORS[name].status).toBe(400);
    }
    expect(ERRORS.CANNOT_FORWARD_UNREADABLE_MESSAGE.message).toBe(
      'You cannot forward a message whose content you cannot read.',
    );
    expect(ERRORS.INVALID_FORM_BODY).toEqual({
      code: 50035,
      status: 400,
      message: 'Invalid Form Body',
    });
    expect(ERRORS.REQUEST_ENTITY_TOO_LARGE.status).toBe(413);
    expect(ERRORS.MISSING_ACCESS).toEqual({ code: 50001, status: 403, message: 'Missing Access' });
    expect(ERRORS.MISSING_PERMISSIONS.status).toBe(403);
    expect(ERRORS.UNKNOWN_CHANNEL.message).toBe('Unknown Channel');
  });

  it('has the general errors under code 0 with their HTTP statuses', () => {
    const general = Object.fromEntries(
      entries.filter(([, e]) => e.code === 0).map(([name, e]) => [name, e.status]),
    );
    expect(general).toEqual({
      GENERAL: 400,
      UNAUTHORIZED: 401,
      NOT_FOUND: 404,
      METHOD_NOT_ALLOWED: 405,
      UNSUPPORTED_MEDIA_TYPE: 415,
      RATE_LIMITED: 429,
      INTERNAL_SERVER_ERROR: 500,
      INVALID_API_VERSION: 400,
      RESOURCE_LOCKED: 423,
      SUBSCRIPTION_NOT_FOUND: 404,
      // Unknown objects the reference library has no code for (docs/automod.md, guild-api.md).
      AUTO_MODERATION_RULE_NOT_FOUND: 404,
      JOIN_REQUEST_NOT_FOUND: 404,
    });
  });
});

describe('errorByCode', () => {
  it('finds every non-zero entry by its code', () => {
    for (const [name, e] of entries) {
      if (e.code !== 0) expect(errorByCode(e.code)).toBe(name);
    }
  });

  it('returns undefined for the ambiguous code 0 and for unknown codes', () => {
    expect(errorByCode(0)).toBeUndefined();
    expect(errorByCode(99_999)).toBeUndefined();
    expect(errorByCode(10_003.5)).toBeUndefined();
  });
});

describe('FIELD_ERROR_CODES', () => {
  it('maps SCREAMING_SNAKE leaf codes to non-empty templates', () => {
    for (const [code, template] of Object.entries(FIELD_ERROR_CODES)) {
      expect(code).toMatch(/^[A-Z][A-Z0-9_]*$/);
      expect(template.length).toBeGreaterThan(0);
    }
  });

  it('reproduces the platform wording once placeholders are filled', () => {
    expect(FIELD_ERROR_CODES.BASE_TYPE_REQUIRED).toBe('This field is required');
    expect(FIELD_ERROR_CODES.BASE_TYPE_MAX_LENGTH.replace('{max}', '2000')).toBe(
      'Must be 2000 or fewer in length.',
    );
    expect(
      FIELD_ERROR_CODES.NUMBER_TYPE_COERCE.replace('{value}', 'abc').replace('{type}', 'snowflake'),
    ).toBe('Value "abc" is not snowflake.');
  });
});

describe('error body types', () => {
  it('accept the nested field-error tree of a form error', () => {
    const title: FieldErrorLeaf = {
      _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 256 or fewer in length.' }],
    };
    const body: ErrorBody = {
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        content: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
        embeds: { '0': { title } },
      },
    };
    const embeds = body.errors?.['embeds'];
    expectTypeOf(embeds).toEqualTypeOf<FieldErrorTree | FieldError[] | undefined>();
    expectTypeOf(title).toExtend<FieldErrorTree>();
    expect(embeds).toEqual({ '0': { title } });
    expect(JSON.parse(JSON.stringify(body))).toEqual(body);

    const requestLevel: FieldErrorTree = { _errors: [{ code: 'X', message: 'y' }] };
    expect(requestLevel['_errors']).toHaveLength(1);

    // A field with errors of its own and a nested field with errors beside them.
    const both: FieldErrorLeaf = { _errors: [{ code: 'X', message: 'y' }], name: title };
    expect(both._errors).toHaveLength(1);

    // @ts-expect-error a leaf error needs a string code
    const badCode: FieldErrorTree = { content: { _errors: [{ code: 1, message: 'x' }] } };
    // @ts-expect-error a branch cannot be a plain string
    const badBranch: FieldErrorTree = { content: 'This field is required' };
    expect([badCode, badBranch]).toHaveLength(2);
  });
});
