/**
 * @module oauth/scopeGrants: which grants may carry each scope (docs/oauth.md#scopes-and-grants).
 * Every grant consults this one table: the authorize page and its JSON decision, a local
 * authorize, the device flow, client credentials, and the token endpoint when it redeems a code
 * or a device code or refreshes a token.
 */
import { OAuthError } from './errors.js';

/**
 * The ways a scope reaches a token: `page`, the authorize page (a browser, or its JSON decision)
 * whose code is exchanged with the client secret or with PKCE; `local`, a local authorize (an
 * activity's `authorize`, an RPC app's AUTHORIZE) answered by the person's running client;
 * `device`, the device flow; `client_credentials`, the application acting for its owner, with
 * no person asked.
 */
export const SCOPE_GRANT_KINDS = ['page', 'local', 'device', 'client_credentials'] as const;
export type ScopeGrant = (typeof SCOPE_GRANT_KINDS)[number];

/** A person's own consent, in any flow. */
const PERSON = ['page', 'local', 'device'] as const;
/** A person's consent where a code is issued: the authorize page or their running client. */
const CODE = ['page', 'local'] as const;
/** Only the authorize page: a guild is picked there, or a person who manages it consents. */
const PAGE = ['page'] as const;
/** Only client credentials: the application's own data, for its owner alone. */
const OWNER = ['client_credentials'] as const;

/**
 * Scope → the grants that may carry it. A scope missing here is carried by none (fail closed);
 * the scopes test checks every known scope has a row.
 */
export const SCOPE_GRANTS: Readonly<Record<string, readonly ScopeGrant[]>> = {
  openid: PERSON,
  identify: [...PERSON, 'client_credentials'],
  email: PERSON,
  guilds: PERSON,
  'guilds.join': PERSON,
  'guilds.members.read': PERSON,
  connections: PERSON,
  bot: PAGE,
  'applications.commands': CODE,
  'applications.commands.update': OWNER,
  'applications.commands.permissions.update': PAGE,
  'applications.builds.read': OWNER,
  'applications.builds.upload': OWNER,
  'applications.entitlements': [...PERSON, 'client_credentials'],
  'applications.store.update': OWNER,
  'relationships.read': PERSON,
  'relationships.write': PERSON,
  'identify.premium': PERSON,
  'role_connections.write': PERSON,
  'dm_channels.read': PERSON,
  'dm_channels.messages.read': PERSON,
  'dm_channels.messages.write': PERSON,
  'activities.read': PERSON,
  'activities.write': PERSON,
  'presences.read': PERSON,
  'presences.write': PERSON,
  'gdm.join': PERSON,
  'lobbies.write': PERSON,
  'messages.read': CODE,
  rpc: CODE,
  'rpc.activities.write': CODE,
  'rpc.notifications.read': CODE,
  'rpc.voice.read': CODE,
  'rpc.voice.write': CODE,
  'rpc.screenshare.read': CODE,
  'rpc.screenshare.write': CODE,
  'rpc.video.read': CODE,
  'rpc.video.write': CODE,
  voice: PERSON,
  'webhook.incoming': PAGE,
  'openid.profile': PERSON,
  'sdk.social_layer': PERSON,
  'sdk.social_layer_presence': PERSON,
  'application_identities.write': PERSON,
  'account.global_name.update': PERSON,
};

/** The grants whose tokens come with a refresh token (client credentials has none). */
export const REFRESHABLE_GRANTS: readonly ScopeGrant[] = PERSON;
/** The grants whose codes the authorization_code grant redeems. */
export const CODE_GRANTS: readonly ScopeGrant[] = CODE;

const GRANT_NAMES: Record<ScopeGrant, string> = {
  page: 'the authorization code grant',
  local: 'a local authorize request',
  device: 'the device flow',
  client_credentials: 'the client credentials grant',
};

/** Whether one of `grants` may carry `scope`. */
export function grantMayCarry(scope: string, grants: readonly ScopeGrant[]): boolean {
  const allowed = Object.hasOwn(SCOPE_GRANTS, scope) ? SCOPE_GRANTS[scope] : undefined;
  return allowed !== undefined && grants.some((grant) => allowed.includes(grant));
}

/**
 * invalid_scope (RFC 6749 §5.2) naming the first of `scopes` that none of `grants` may carry, or
 * null when every one may be carried.
 */
export function grantScopeRefusal(
  scopes: readonly string[],
  grants: readonly ScopeGrant[],
): OAuthError | null {
  const refused = scopes.find((scope) => !grantMayCarry(scope, grants));
  if (refused === undefined) return null;
  const names = grants.map((grant) => GRANT_NAMES[grant]);
  const last = names.pop() ?? '';
  const via = names.length === 0 ? last : `${names.join(', ')} or ${last}`;
  return new OAuthError('invalid_scope', `${refused} cannot be granted by ${via}.`);
}
