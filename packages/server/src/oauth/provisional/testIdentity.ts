import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import type { JWTPayload } from 'jose';
import type { Clock } from '../../domain/clock.js';
import { DAY_MS, SECOND_MS, unixSeconds } from '../../domain/time.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type {
  ExternalAuthType,
  IdentityProvider,
  IdentityTestKeyRecord,
} from '../../storage/index.js';
import { MAX_EXTERNAL_ID_LENGTH } from './schemas.js';

/**
 * Test identity providers (docs/provisional-accounts.md, Test identity providers): in test mode a
 * provider's credential is a JWT the developer signs with the private key of the public key they
 * registered, in place of the provider's own ticket or ID token. Nothing here calls a provider.
 */

/** The `external_auth_type` values each provider's credentials come as. */
export const PROVIDER_AUTH_TYPES: Record<IdentityProvider, readonly ExternalAuthType[]> = {
  steam: ['STEAM_SESSION_TICKET'],
  epic: ['EPIC_ONLINE_SERVICES_ACCESS_TOKEN', 'EPIC_ONLINE_SERVICES_ID_TOKEN'],
  unity: ['UNITY_SERVICES_ID_TOKEN'],
  apple: ['APPLE_ID_TOKEN'],
  playstation: ['PLAYSTATION_NETWORK_ID_TOKEN'],
};

/** The provider an `external_auth_type` belongs to, or null (OIDC, bot-issued tokens). */
export function providerOf(type: ExternalAuthType): IdentityProvider | null {
  for (const [provider, types] of Object.entries(PROVIDER_AUTH_TYPES)) {
    if (types.includes(type)) return provider as IdentityProvider;
  }
  return null;
}

/** The `iss` of every test credential. */
export const TEST_ISSUER = 'guildhall-test-identity';
/** How long `guildhall identity issue` credentials last unless told otherwise. */
export const DEFAULT_TEST_TTL_SECONDS = 3600;
/** As for OpenID ID tokens: a credential issued longer ago is refused (530004). */
const MAX_AGE_MS = 7 * DAY_MS;
const MIN_RSA_BITS = 2048;
const EC_ALGORITHMS: Record<string, string> = {
  prime256v1: 'ES256',
  secp384r1: 'ES384',
  secp521r1: 'ES512',
};
const RSA_ALGORITHMS = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];

/** The signing algorithms a key may use, or null for a key type that is not accepted. */
function algorithmsFor(key: KeyObject): string[] | null {
  const details = key.asymmetricKeyDetails ?? {};
  switch (key.asymmetricKeyType) {
    case 'ed25519':
      return ['EdDSA'];
    case 'ec': {
      const alg = EC_ALGORITHMS[details.namedCurve ?? ''];
      return alg === undefined ? null : [alg];
    }
    case 'rsa':
      return (details.modulusLength ?? 0) >= MIN_RSA_BITS ? RSA_ALGORITHMS : null;
    case 'rsa-pss':
    case 'dsa':
    case 'ed448':
    case 'x25519':
    case 'x448':
    case undefined:
      return null;
  }
}

/**
 * Checks a public key a developer registers and returns it as SPKI PEM.
 * @throws ApiError 50035 on `public_key` for a private key, garbage, or a key type not accepted
 *   (RSA of 2048 bits or more, EC P-256/P-384/P-521, Ed25519).
 */
export function checkPublicKey(pem: string): string {
  if (!pem.includes('-----BEGIN PUBLIC KEY-----')) {
    throw invalidField(
      ['public_key'],
      'BASE_TYPE_BAD_VALUE',
      'Must be a public key in PEM form (-----BEGIN PUBLIC KEY-----)',
    );
  }
  let key: KeyObject;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw invalidField(['public_key'], 'BASE_TYPE_BAD_VALUE', 'Not a readable public key');
  }
  if (algorithmsFor(key) === null) {
    throw invalidField(
      ['public_key'],
      'BASE_TYPE_BAD_VALUE',
      'Must be an RSA key of 2048 bits or more, an EC key on P-256, P-384 or P-521, or Ed25519',
    );
  }
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

/** What a verified test credential proves. */
export interface TestIdentity {
  subject: string;
  preferredName: string | null;
}

/**
 * Verifies a test credential against the application's registered key: the signature, then
 * `iss`, `aud` (the application id), `provider`, `sub`, `exp` and `iat`.
 * @throws ApiError 530020 (bad token or signature), 530001 (expired), 530002 (issuer),
 *   530003 (audience or provider), 530004 (issued over 7 days ago).
 */
export async function verifyTestCredential(
  token: string,
  key: IdentityTestKeyRecord,
  clock: Clock,
): Promise<TestIdentity> {
  // jose is loaded at the first credential to verify, as for OpenID.
  const { jwtVerify, errors } = await import('jose');
  const publicKey = createPublicKey({ key: key.publicKey, format: 'pem' });
  let payload: JWTPayload;
  try {
    ({ payload } = await jwtVerify(token, publicKey, {
      algorithms: algorithmsFor(publicKey) ?? [],
      currentDate: new Date(clock.now()),
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch (err) {
    if (err instanceof errors.JWTExpired) throw new ApiError('ID_TOKEN_EXPIRED', { cause: err });
    throw new ApiError('INVALID_OIDC_JWT', { cause: err });
  }
  if (payload.iss !== TEST_ISSUER) throw new ApiError('ID_TOKEN_ISSUER_MISMATCH');
  const audiences = Array.isArray(payload.aud) ? payload.aud : [payload.aud];
  if (!audiences.includes(key.applicationId) || payload['provider'] !== key.provider) {
    throw new ApiError('ID_TOKEN_AUDIENCE_MISMATCH');
  }
  const subject = payload.sub;
  if (typeof subject !== 'string' || subject === '' || subject.length > MAX_EXTERNAL_ID_LENGTH) {
    throw new ApiError('INVALID_OIDC_JWT');
  }
  if (clock.now() - (payload.iat ?? 0) * SECOND_MS > MAX_AGE_MS) {
    throw new ApiError('ID_TOKEN_ISSUED_TOO_LONG_AGO');
  }
  const name = payload['preferred_username'];
  return {
    subject,
    preferredName: typeof name === 'string' && name.length >= 1 && name.length <= 32 ? name : null,
  };
}

/**
 * Signs a test credential with a developer's private key (PKCS#8 or the key type's own PEM), as
 * `guildhall identity issue` and a game's own test harness do.
 * @throws ApiError 50035 on `key` when it is not a private key of an accepted type.
 */
export async function signTestCredential(input: {
  privateKeyPem: string;
  applicationId: string;
  provider: IdentityProvider;
  subject: string;
  preferredName: string | null;
  nowMs: number;
  ttlSeconds: number;
}): Promise<string> {
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey({ key: input.privateKeyPem, format: 'pem' });
  } catch {
    throw invalidField(['key'], 'BASE_TYPE_BAD_VALUE', 'Not a readable private key in PEM form');
  }
  const alg = algorithmsFor(privateKey)?.[0];
  if (alg === undefined) {
    throw invalidField(['key'], 'BASE_TYPE_BAD_VALUE', 'Not a key type test credentials use');
  }
  const { SignJWT } = await import('jose');
  const issuedAt = unixSeconds(input.nowMs);
  return new SignJWT({
    provider: input.provider,
    ...(input.preferredName === null ? {} : { preferred_username: input.preferredName }),
  })
    .setProtectedHeader({ alg, typ: 'JWT' })
    .setIssuer(TEST_ISSUER)
    .setAudience(input.applicationId)
    .setSubject(input.subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(issuedAt + input.ttlSeconds)
    .sign(privateKey);
}
