import { request as httpRequest } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import type { JWTPayload, ProtectedHeaderParameters } from 'jose';
import { z } from 'zod';
import { guardedLookup, webhookUrlProblem } from '../../delivery/urlPolicy.js';
import type { Clock } from '../../domain/clock.js';
import { ApiError } from '../../errors/index.js';
import type { OidcValidation } from '../../storage/index.js';
import { SECOND_MS, MINUTE_MS, DAY_MS } from '../../domain/time.js';
import { MAX_EXTERNAL_ID_LENGTH } from './schemas.js';

/**
 * The only ID token signing algorithms accepted: asymmetric ones
 * (docs/platform-notes.md#provisional-accounts).
 */
export const ALLOWED_ALGORITHMS = [
  'RS256',
  'RS384',
  'RS512',
  'ES256',
  'ES384',
  'ES512',
  'PS256',
  'PS384',
  'PS512',
] as const;

const MAX_ID_TOKEN_AGE_MS = 7 * DAY_MS;
/** A JWKS fetched this recently is not fetched again for an unknown `kid`. */
const FORCED_REFETCH_MS = MINUTE_MS;
const FORBIDDEN_SUFFIXES = ['.local', '.arpa', '.internal', '.localhost'];

export interface OidcFetchLimits {
  timeoutMs: number;
  maxBytes: number;
  /** How long a discovery document and its JWKS are reused. */
  cacheMs: number;
}

export const DEFAULT_FETCH_LIMITS: OidcFetchLimits = {
  timeoutMs: 5000,
  maxBytes: 512 * 1024,
  cacheMs: 10 * MINUTE_MS,
};

/**
 * Why an issuer URL breaks the rules, or null when it keeps them: https, no credentials, query or
 * fragment, a host name (not an IP literal) of two labels or more outside .local, .arpa,
 * .internal and .localhost; any port. With `allowInsecureLocal` (an operator's development
 * setting) http://127.0.0.1 issuers pass too.
 */
export function issuerProblem(issuer: string, allowInsecureLocal: boolean): string | null {
  let url: URL;
  try {
    url = new URL(issuer);
  } catch {
    return 'must be an absolute URL';
  }
  if (url.username !== '' || url.password !== '') return 'must not carry credentials';
  if (url.search !== '' || issuer.includes('?')) return 'must not have a query';
  if (url.hash !== '' || issuer.includes('#')) return 'must not have a fragment';
  const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (allowInsecureLocal && host === '127.0.0.1' && ['http:', 'https:'].includes(url.protocol)) {
    return null;
  }
  if (url.protocol !== 'https:') return 'must use https';
  if (isIP(host) !== 0) return 'must name a host, not an IP address';
  const labels = host.replace(/\.$/, '').split('.');
  if (labels.length < 2 || labels.some((label) => label === '')) {
    return 'must have a host name of at least two labels';
  }
  if (FORBIDDEN_SUFFIXES.some((suffix) => `.${labels.join('.')}`.endsWith(suffix))) {
    return 'must not be a .local, .arpa, .internal or .localhost host';
  }
  return null;
}

/** A fetch failure: a status, a redirect, a timeout, a body too large or not JSON. */
class FetchFailure extends Error {
  override readonly name = 'FetchFailure';
}

/**
 * GETs a JSON document: redirects refused (a 3xx is an error), a timeout and a size cap. The
 * address rules are the webhook ones (delivery/urlPolicy.ts, one implementation): https (http
 * only to loopback when the operator allows local development), no non-public IP literal, and a
 * DNS answer checked at connection time, so a name resolving to 10/8, 169.254/16 or loopback
 * cannot reach the platform's own network, even by rebinding.
 */
function fetchJson(
  url: string,
  limits: OidcFetchLimits & { allowLocal: boolean },
): Promise<unknown> {
  const problem = webhookUrlProblem(url, limits.allowLocal);
  if (problem !== null) return Promise.reject(new FetchFailure(`GET ${url} refused: ${problem}`));
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const fail = (message: string, cause?: unknown) => {
      reject(new FetchFailure(`GET ${url} ${message}`, { cause }));
      req.destroy();
    };
    const req = send(target, {
      method: 'GET',
      agent: false,
      lookup: guardedLookup(limits.allowLocal),
      headers: { accept: 'application/json' },
      timeout: limits.timeoutMs,
    });
    const deadline = setTimeout(() => {
      fail('timed out');
    }, limits.timeoutMs);
    req.on('timeout', () => {
      fail('timed out');
    });
    req.on('error', (err) => {
      clearTimeout(deadline);
      fail('failed', err);
    });
    req.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400) {
        clearTimeout(deadline);
        fail(`answered a redirect (${String(status)})`);
        return;
      }
      if (status !== 200) {
        clearTimeout(deadline);
        fail(`answered ${String(status)}`);
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.byteLength;
        if (size > limits.maxBytes) {
          clearTimeout(deadline);
          fail(`: body larger than ${String(limits.maxBytes)} bytes`);
          return;
        }
        chunks.push(chunk);
      });
      response.on('error', (err) => {
        clearTimeout(deadline);
        fail(': body unreadable', err);
      });
      response.on('end', () => {
        clearTimeout(deadline);
        try {
          resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown);
        } catch (err) {
          fail(': not JSON', err);
        }
      });
    });
    req.end();
  });
}

/** The discovery document fields the exchange relies on (others are ignored). */
const DiscoveryDocument = z.object({
  issuer: z.string(),
  jwks_uri: z.string(),
  id_token_signing_alg_values_supported: z.array(z.unknown()),
});

const KeySet = z.object({ keys: z.array(z.looseObject({ kty: z.string() })) });

interface ProviderKeys {
  jwks: z.infer<typeof KeySet>;
  fetchedAt: number;
}

/** What an ID token is checked against: the application's provider settings. */
export interface OidcProviderSettings {
  issuer: string;
  clientId: string;
  validation: OidcValidation;
}

/** The claims a verified ID token yields. */
export interface VerifiedIdToken {
  subject: string;
  preferredUsername: string | null;
}

export interface OidcVerifier {
  /**
   * Fetches the issuer's discovery document and JWKS under the current rules (saving a provider).
   * @throws ApiError 50035 for an issuer breaking the hostname rules, 530008 for a discovery
   *   document that cannot be fetched or is wrong, 530009 for the JWKS.
   */
  checkProvider(issuer: string): Promise<void>;
  /**
   * Verifies an ID token against the provider: header (`kid`, asymmetric alg), `iss`, signature
   * with the issuer's JWKS, `exp`, `aud`, `sub`, and `iat` at most 7 days old.
   * @throws ApiError with the 5300xx code of the first failure.
   */
  verify(token: string, provider: OidcProviderSettings): Promise<VerifiedIdToken>;
}

/**
 * OpenID ID token verification for provisional accounts. Discovery documents and JWKS are fetched
 * without following redirects, within a timeout and a size cap, and cached per issuer.
 */
export function createOidcVerifier(options: {
  clock: Clock;
  allowInsecureLocal: boolean;
  limits?: OidcFetchLimits;
}): OidcVerifier {
  const { clock, allowInsecureLocal } = options;
  const limits = { ...(options.limits ?? DEFAULT_FETCH_LIMITS), allowLocal: allowInsecureLocal };
  const cache = new Map<string, ProviderKeys>();

  const loadKeys = async (issuer: string, strict: boolean): Promise<ProviderKeys> => {
    const base = issuer.replace(/\/+$/, '');
    const discovery = await fetchJson(`${base}/.well-known/openid-configuration`, limits).catch(
      (err: unknown) => {
        throw new ApiError('OIDC_CONFIGURATION_NOT_FOUND', { cause: err });
      },
    );
    const parsed = DiscoveryDocument.safeParse(discovery);
    if (
      !parsed.success ||
      parsed.data.issuer !== issuer ||
      !parsed.data.id_token_signing_alg_values_supported.some((alg) =>
        (ALLOWED_ALGORITHMS as readonly unknown[]).includes(alg),
      )
    ) {
      throw new ApiError('OIDC_CONFIGURATION_NOT_FOUND');
    }
    const jwksUri = parsed.data.jwks_uri;
    // The JWKS host is held to the issuer's rules (no IP literals, https), unless legacy.
    if (
      strict &&
      (!URL.canParse(jwksUri) ||
        issuerProblem(new URL(jwksUri).origin, allowInsecureLocal) !== null)
    ) {
      throw new ApiError('OIDC_JWKS_NOT_FOUND');
    }
    const jwks = await fetchJson(jwksUri, limits).catch((err: unknown) => {
      throw new ApiError('OIDC_JWKS_NOT_FOUND', { cause: err });
    });
    const keySet = KeySet.safeParse(jwks);
    if (!keySet.success) throw new ApiError('OIDC_JWKS_NOT_FOUND');
    const keys: ProviderKeys = { jwks: keySet.data, fetchedAt: clock.now() };
    cache.set(issuer, keys);
    return keys;
  };

  // One fetch per issuer at a time: concurrent requests share it.
  const inFlight = new Map<string, Promise<ProviderKeys>>();
  const sharedLoad = (issuer: string, strict: boolean): Promise<ProviderKeys> => {
    const running = inFlight.get(issuer);
    if (running !== undefined) return running;
    const load = loadKeys(issuer, strict).finally(() => inFlight.delete(issuer));
    inFlight.set(issuer, load);
    return load;
  };

  const keysFor = async (issuer: string, strict: boolean): Promise<ProviderKeys> => {
    const cached = cache.get(issuer);
    if (cached !== undefined && clock.now() - cached.fetchedAt < limits.cacheMs) return cached;
    return sharedLoad(issuer, strict);
  };

  const verifySignature = async (token: string, keys: ProviderKeys) => {
    const { createLocalJWKSet, jwtVerify } = await import('jose');
    const result = await jwtVerify(token, createLocalJWKSet(keys.jwks), {
      algorithms: [...ALLOWED_ALGORITHMS],
      currentDate: new Date(clock.now()),
      requiredClaims: ['exp', 'iat', 'sub'],
    });
    return result.payload;
  };

  return {
    async checkProvider(issuer) {
      const problem = issuerProblem(issuer, allowInsecureLocal);
      if (problem !== null) {
        throw new ApiError('INVALID_FORM_BODY', {
          errors: { issuer: { _errors: [{ code: 'OIDC_ISSUER_INVALID', message: problem }] } },
        });
      }
      await loadKeys(issuer, true);
    },

    async verify(token, provider) {
      // jose is loaded at the first token to verify: a server that sees none never loads it.
      const { decodeJwt, decodeProtectedHeader, errors: joseErrors } = await import('jose');
      let header: ProtectedHeaderParameters;
      let claims: JWTPayload;
      try {
        header = decodeProtectedHeader(token);
        claims = decodeJwt(token);
      } catch (err) {
        throw new ApiError('INVALID_OIDC_JWT', { cause: err });
      }
      if (typeof header.kid !== 'string' || header.kid === '') {
        throw new ApiError('MISSING_KID_HEADER');
      }
      if (!(ALLOWED_ALGORITHMS as readonly unknown[]).includes(header.alg)) {
        throw new ApiError('INVALID_OIDC_JWT');
      }
      if (claims.iss !== provider.issuer) throw new ApiError('ID_TOKEN_ISSUER_MISMATCH');
      // Configurations saved before the hostname rules keep working (legacy); others are held to
      // the rules at every exchange too.
      if (
        provider.validation === 'strict' &&
        issuerProblem(provider.issuer, allowInsecureLocal) !== null
      ) {
        throw new ApiError('OIDC_CONFIGURATION_NOT_FOUND');
      }
      const strict = provider.validation === 'strict';
      let payload: JWTPayload;
      try {
        let keys = await keysFor(provider.issuer, strict);
        try {
          payload = await verifySignature(token, keys);
        } catch (err) {
          // A key rotated since the JWKS was cached: fetch it again, once, and at most once a
          // minute per issuer, so tokens with made-up kids cannot make the server hammer it.
          if (!(err instanceof joseErrors.JWKSNoMatchingKey)) throw err;
          if (clock.now() - keys.fetchedAt < FORCED_REFETCH_MS) throw err;
          keys = await sharedLoad(provider.issuer, strict);
          payload = await verifySignature(token, keys);
        }
      } catch (err) {
        if (err instanceof ApiError) throw err;
        if (err instanceof joseErrors.JWTExpired)
          throw new ApiError('ID_TOKEN_EXPIRED', { cause: err });
        throw new ApiError('INVALID_OIDC_JWT', { cause: err });
      }
      const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
      if (!audiences.includes(provider.clientId)) throw new ApiError('ID_TOKEN_AUDIENCE_MISMATCH');
      if (
        typeof payload.sub !== 'string' ||
        payload.sub === '' ||
        payload.sub.length > MAX_EXTERNAL_ID_LENGTH
      ) {
        throw new ApiError('INVALID_OIDC_JWT');
      }
      const issuedAtMs = (payload.iat ?? 0) * SECOND_MS;
      if (clock.now() - issuedAtMs > MAX_ID_TOKEN_AGE_MS) {
        throw new ApiError('ID_TOKEN_ISSUED_TOO_LONG_AGO');
      }
      const name = payload['preferred_username'];
      return {
        subject: payload.sub,
        preferredUsername:
          typeof name === 'string' && name.length >= 1 && name.length <= 32 ? name : null,
      };
    },
  };
}
