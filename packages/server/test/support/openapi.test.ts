import { describe, expect, it } from 'vitest';
import { expectOpenApiResponse, getOpenApiValidator } from './openapi.js';
import type { InjectedResponse, OpenApiValidationResult } from './openapi.js';

const USER_ID = '80351110224678912';

/** `UserPIIResponse`, the body of `get_my_user` and `update_my_user`. */
const me = {
  id: USER_ID,
  username: 'nelly',
  discriminator: '0',
  global_name: null,
  avatar: null,
  public_flags: 0,
  flags: 0,
  mfa_enabled: false,
  locale: 'en-US',
  email: 'nelly@example.com',
  verified: true,
  bot: false,
};

/** `UserResponse`, the body of `get_user`: no PII, but `primary_guild` is required. */
const publicUser = {
  id: USER_ID,
  username: 'nelly',
  discriminator: '0',
  global_name: 'Nelly',
  avatar: null,
  public_flags: 0,
  flags: 0,
  primary_guild: null,
};

/** `PrivateApplicationResponse`, the body of `get_my_application`. */
const application = {
  id: '1084563278394015744',
  name: 'Guildhall Bot',
  icon: null,
  description: '',
  type: null,
  verify_key: 'a'.repeat(64),
  flags: 0,
  flags_new: '0',
  redirect_uris: [],
  interactions_endpoint_url: null,
  role_connections_verification_url: null,
  owner: publicUser,
  approximate_guild_count: 0,
  approximate_user_install_count: 0,
  approximate_user_authorization_count: 0,
  explicit_content_filter: 0,
  team: null,
  eligible_oauth2_scopes: ['identify', 'bot'],
  bot_public: true,
  bot_require_code_grant: false,
};

const gatewayBot = {
  url: 'wss://gateway.guildhall.test',
  shards: 1,
  session_start_limit: { total: 1000, remaining: 999, reset_after: 14_400_000, max_concurrency: 1 },
};

const invalidFormBody = {
  code: 50035,
  message: 'Invalid Form Body',
  errors: {
    username: {
      _errors: [{ code: 'BASE_TYPE_MAX_LENGTH', message: 'Must be 32 or fewer in length.' }],
    },
  },
};

const json = (statusCode: number, body: unknown): InjectedResponse => ({
  statusCode,
  body: JSON.stringify(body),
  headers: { 'content-type': 'application/json; charset=utf-8' },
});

/** `validate('GET /users/@me', 200, body)`. */
const validate = (request: string, status: number, body: unknown) => {
  const [method = '', path = ''] = request.split(' ');
  return getOpenApiValidator().validateResponse({ method, path, status, body });
};

const without = (value: object, key: string): Record<string, unknown> =>
  Object.fromEntries(Object.entries(value).filter(([name]) => name !== key));

const errorsOf = (result: OpenApiValidationResult): string =>
  result.ok ? '' : result.errors.join('\n');

describe('getOpenApiValidator', () => {
  it('is built once per process', () => {
    expect(getOpenApiValidator()).toBe(getOpenApiValidator());
  });

  it('matches concrete paths, with or without the /api prefix and query string', () => {
    const validator = getOpenApiValidator();
    expect(validator.hasOperation('GET', '/users/@me')).toBe(true);
    expect(validator.hasOperation('get', '/api/v10/users/@me')).toBe(true);
    expect(validator.hasOperation('GET', '/api/v9/users/123456789012345678?with_counts=true')).toBe(
      true,
    );
    expect(validator.hasOperation('GET', '/api/gateway/bot/')).toBe(true);
    expect(validator.hasOperation('DELETE', '/api/v10/users/@me/guilds/123')).toBe(true);
    expect(validator.hasOperation('GET', '/users')).toBe(false);
    expect(validator.hasOperation('GET', '/nope')).toBe(false);
    expect(validator.hasOperation('DELETE', '/gateway')).toBe(false);
  });

  it('prefers the literal /users/@me over /users/{user_id}', () => {
    // UserResponse requires primary_guild; UserPIIResponse requires mfa_enabled and locale instead.
    expect(validate('GET /users/123456789012345678', 200, publicUser)).toEqual({ ok: true });
    const result = validate('GET /api/v10/users/@me', 200, publicUser);
    expect(result.ok).toBe(false);
    expect(errorsOf(result)).toContain('get_my_user');
    expect(errorsOf(result)).toContain('mfa_enabled');
    expect(validate('GET /api/v10/users/@me', 200, me)).toEqual({ ok: true });
  });

  it('rejects a user whose id is a number or whose username is missing', () => {
    expect(validate('PATCH /users/@me', 200, me)).toEqual({ ok: true });
    const numericId = validate('GET /users/@me', 200, { ...me, id: 123 });
    expect(errorsOf(numericId)).toMatch(/\/id must be string/);
    expect(errorsOf(validate('GET /users/@me', 200, without(me, 'username')))).toContain(
      'username',
    );
  });

  it('checks snowflakes against the SnowflakeType pattern', () => {
    expect(validate('GET /users/@me', 200, { ...me, id: '0123' }).ok).toBe(false);
    expect(validate('GET /users/@me', 200, { ...me, id: '1'.repeat(21) }).ok).toBe(false);
  });

  it('validates the private application', () => {
    expect(validate('GET /applications/@me', 200, application)).toEqual({ ok: true });
    const ownerless = without(application, 'owner');
    expect(errorsOf(validate('PATCH /applications/@me', 200, ownerless))).toContain('owner');
  });

  it('validates the bot gateway and requires session_start_limit', () => {
    expect(validate('GET /gateway/bot', 200, gatewayBot)).toEqual({ ok: true });
    const partial = without(gatewayBot, 'session_start_limit');
    expect(errorsOf(validate('GET /gateway/bot', 200, partial))).toContain('session_start_limit');
    expect(validate('GET /gateway', 200, { url: 'not a uri' }).ok).toBe(false);
  });

  it('validates error bodies through the 4XX range response', () => {
    expect(validate('PATCH /users/@me', 400, invalidFormBody)).toEqual({ ok: true });
    const unknownUser = { code: 10013, message: 'Unknown User' };
    expect(validate('GET /users/1', 404, unknownUser)).toEqual({ ok: true });
    expect(validate('GET /users/1', 404, { message: 'Unknown User' }).ok).toBe(false);
    // Field error codes are strings, as the platform sends them
    // (docs/platform-notes.md#error-body), not integers.
    const integerCode = {
      ...invalidFormBody,
      errors: { username: { _errors: [{ code: 50035, message: 'Too long.' }] } },
    };
    expect(validate('PATCH /users/@me', 400, integerCode).ok).toBe(false);
  });

  it('validates a 429 body against RatelimitedResponse', () => {
    const limited = {
      code: 0,
      message: 'You are being rate limited.',
      retry_after: 1.5,
      global: false,
    };
    expect(validate('GET /users/@me', 429, limited)).toEqual({ ok: true });
    const partial = without(limited, 'global');
    expect(errorsOf(validate('GET /users/@me', 429, partial))).toContain('global');
    // RatelimitedResponse extends Error, so `code` is required too.
    expect(errorsOf(validate('GET /users/@me', 429, without(limited, 'code')))).toContain('code');
  });

  it('requires an empty body for a 204 and rejects undescribed statuses', () => {
    expect(validate('DELETE /users/@me/guilds/1', 204, undefined)).toEqual({ ok: true });
    expect(validate('DELETE /users/@me/guilds/1', 204, '')).toEqual({ ok: true });
    expect(validate('DELETE /users/@me/guilds/1', 204, {}).ok).toBe(false);
    expect(validate('GET /users/@me', 200, undefined).ok).toBe(false);
    expect(errorsOf(validate('GET /users/@me', 500, {}))).toContain('status 500');
  });
});

describe('expectOpenApiResponse', () => {
  it('passes a conforming response', () => {
    expect(() => {
      expectOpenApiResponse(json(200, gatewayBot), 'GET', '/api/v10/gateway/bot');
    }).not.toThrow();
    const noContent = { statusCode: 204, body: '', headers: {} };
    expect(() => {
      expectOpenApiResponse(noContent, 'DELETE', '/api/v10/users/@me/guilds/1');
    }).not.toThrow();
  });

  it('throws with every message and the body', () => {
    const bad = json(200, { ...me, id: 123, username: undefined });
    expect(() => {
      expectOpenApiResponse(bad, 'GET', '/api/v10/users/@me');
    }).toThrow(/does not match #\/components\/schemas\/UserPIIResponse/);
    expect(() => {
      expectOpenApiResponse(bad, 'GET', '/api/v10/users/@me');
    }).toThrow(/required property 'username'[\s\S]*\/id must be string[\s\S]*body: \{"id":123/);
  });

  it('throws for an operation the document does not describe', () => {
    expect(() => {
      expectOpenApiResponse(json(200, {}), 'GET', '/api/v10/not-a-route');
    }).toThrow(/not described/);
    expect(() => {
      expectOpenApiResponse(json(200, me), 'PUT', '/api/v10/users/@me');
    }).toThrow(/not described/);
  });

  it('throws when a JSON body is not labelled application/json or is not JSON', () => {
    const unlabelled = { ...json(200, gatewayBot), headers: { 'content-type': 'text/plain' } };
    expect(() => {
      expectOpenApiResponse(unlabelled, 'GET', '/gateway/bot');
    }).toThrow(/content-type/);
    const garbled = { ...json(200, gatewayBot), body: '{"url":' };
    expect(() => {
      expectOpenApiResponse(garbled, 'GET', '/gateway/bot');
    }).toThrow(/not JSON/);
  });
});
