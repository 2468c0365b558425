/** The OpenID Connect discovery document (/.well-known/openid-configuration). */
import type { FastifyInstance } from 'fastify';
import { ID_TOKEN_ALG } from './keys.js';
import type { OAuthRouteDeps } from './routeDeps.js';
import { SCOPES } from './scopes.js';

export function registerDiscovery(
  root: FastifyInstance,
  deps: Pick<OAuthRouteDeps, 'issuer' | 'apiPrefix'>,
) {
  const { issuer } = deps;
  root.get('/.well-known/openid-configuration', { config: { auth: 'none' } }, () => {
    const base = issuer();
    const api = `${base}${deps.apiPrefix}`;
    return {
      issuer: base,
      authorization_endpoint: `${base}/oauth2/authorize`,
      token_endpoint: `${api}/oauth2/token`,
      revocation_endpoint: `${api}/oauth2/token/revoke`,
      device_authorization_endpoint: `${api}/oauth2/device/authorize`,
      userinfo_endpoint: `${api}/oauth2/userinfo`,
      jwks_uri: `${api}/oauth2/keys`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: [
        'authorization_code',
        'refresh_token',
        'client_credentials',
        'urn:ietf:params:oauth:grant-type:device_code',
      ],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: [ID_TOKEN_ALG],
      scopes_supported: Object.keys(SCOPES),
      token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
      revocation_endpoint_auth_methods_supported: [
        'client_secret_basic',
        'client_secret_post',
        'none',
      ],
      code_challenge_methods_supported: ['S256'],
      claims_supported: [
        'sub',
        'iss',
        'aud',
        'exp',
        'iat',
        'auth_time',
        'nonce',
        'preferred_username',
        'name',
        'picture',
        'locale',
        'email',
        'email_verified',
      ],
    };
  });
}
