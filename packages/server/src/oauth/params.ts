import { OAuthError } from './errors.js';

/** Every parameter the OAuth2 endpoints read; anything else in a request is ignored. */
const PARAM_NAMES = [
  'response_type',
  'client_id',
  'client_secret',
  'scope',
  'state',
  'redirect_uri',
  'prompt',
  'integration_type',
  'code_challenge',
  'code_challenge_method',
  'nonce',
  'permissions',
  'guild_id',
  'grant_type',
  'code',
  'code_verifier',
  'refresh_token',
  'device_code',
  'token',
  'token_type_hint',
  'user_code',
  'csrf_token',
  'decision',
  'login',
  'password',
  'next',
  'authorize',
  'external_auth_type',
  'external_auth_token',
  'return_to',
] as const;

export type OAuthParamName = (typeof PARAM_NAMES)[number];
export type OAuthParams = Partial<Record<OAuthParamName, string>>;

/**
 * The known parameters of a query, form or JSON body, as strings (numbers and booleans of a JSON
 * body are accepted as their text; a repeated query parameter counts once, its first value).
 */
export function readParams(source: unknown): OAuthParams {
  const out: OAuthParams = {};
  if (typeof source !== 'object' || source === null) return out;
  const record = source as Record<string, unknown>;
  for (const name of PARAM_NAMES) {
    let value = record[name];
    if (Array.isArray(value)) value = value[0];
    if (typeof value === 'string') out[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') {
      out[name] = String(value);
    }
  }
  return out;
}

/**
 * The parameters of a client-authenticated request (token, revoke, device authorization): as
 * readParams, but a parameter sent twice is invalid_request (RFC 6749 §3.1 and §3.2), so two
 * `code` or `grant_type` values never leave the server to pick one.
 */
export function readUniqueParams(source: unknown): OAuthParams {
  if (typeof source === 'object' && source !== null) {
    const record = source as Record<string, unknown>;
    const repeated = PARAM_NAMES.find((name) => Array.isArray(record[name]));
    if (repeated !== undefined) {
      throw new OAuthError('invalid_request', `${repeated} is included more than once.`);
    }
  }
  return readParams(source);
}

/**
 * A form body as an object; a name sent more than once maps to the array of its values, so the
 * OAuth2 endpoints can refuse it (the server-wide form parser keeps the last value only).
 */
export function parseFormKeepingRepeats(body: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of new URLSearchParams(body)) {
    const seen = Object.hasOwn(out, key) ? out[key] : undefined;
    if (seen === undefined) out[key] = value;
    else out[key] = Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}
