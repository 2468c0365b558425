import { timingSafeEqual } from 'node:crypto';
import { isSnowflake } from '@guildhall/protocol';
import { hashSecret } from '../domain/credentials.js';
import type { ApplicationRecord, Repositories } from '../storage/index.js';
import { OAuthError } from './errors.js';
import type { OAuthParams } from './params.js';

/** The client credentials of a request: HTTP Basic, else the body (RFC 6749 §2.3.1). */
export interface ClientCredentials {
  clientId: string | null;
  clientSecret: string | null;
  /** Whether they came by HTTP Basic (a failure then gets a Basic challenge). */
  basic: boolean;
}

/**
 * Reads client credentials. A Basic header wins; any other Authorization scheme (Bot, Bearer, a
 * session token) is ignored on the OAuth2 endpoints.
 */
export function readClientCredentials(
  header: string | undefined,
  body: OAuthParams,
): ClientCredentials {
  if (header !== undefined && /^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) {
      throw new OAuthError('invalid_client', 'Malformed Basic credentials.', {
        basicChallenge: true,
      });
    }
    const decode = (value: string) => {
      try {
        return decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        return value;
      }
    };
    return {
      clientId: decode(decoded.slice(0, colon)),
      clientSecret: decode(decoded.slice(colon + 1)),
      basic: true,
    };
  }
  return {
    clientId: body.client_id ?? null,
    clientSecret: body.client_secret ?? null,
    basic: false,
  };
}

function secretMatches(secret: string, storedHash: string): boolean {
  const actual = Buffer.from(hashSecret(secret), 'hex');
  const expected = Buffer.from(storedHash, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/**
 * Authenticates the client. Without a secret only a public client passes, and `publicAllowed`
 * says whether the grant lets it (PKCE code, device code, refresh). Failures are invalid_client
 * (401).
 */
export async function authenticateClient(
  repos: Pick<Repositories, 'applications'>,
  credentials: ClientCredentials,
  options: { publicAllowed: boolean },
): Promise<{ application: ApplicationRecord; confidential: boolean }> {
  const invalid = (description: string) =>
    new OAuthError('invalid_client', description, { basicChallenge: credentials.basic });
  const { clientId, clientSecret } = credentials;
  if (clientId === null) throw invalid('Client authentication is required.');
  const application = isSnowflake(clientId) ? await repos.applications.findById(clientId) : null;
  if (clientSecret === null || clientSecret === '') {
    if (application?.publicClient === true && options.publicAllowed) {
      return { application, confidential: false };
    }
    throw invalid('Client authentication failed.');
  }
  if (application === null || !secretMatches(clientSecret, application.clientSecretHash)) {
    throw invalid('Client authentication failed.');
  }
  return { application, confidential: true };
}
