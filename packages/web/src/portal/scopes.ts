/**
 * The OAuth2 scopes the server knows, in its order (packages/server/src/oauth/scopes.ts, which
 * the scopes test compares this list with).
 */
export const OAUTH2_SCOPES = [
  'openid',
  'identify',
  'email',
  'guilds',
  'guilds.join',
  'guilds.members.read',
  'connections',
  'bot',
  'applications.commands',
  'applications.commands.update',
  'applications.commands.permissions.update',
  'applications.builds.read',
  'applications.builds.upload',
  'applications.entitlements',
  'applications.store.update',
  'relationships.read',
  'relationships.write',
  'identify.premium',
  'role_connections.write',
  'dm_channels.read',
  'dm_channels.messages.read',
  'dm_channels.messages.write',
  'activities.read',
  'activities.write',
  'presences.read',
  'presences.write',
  'gdm.join',
  'lobbies.write',
  'messages.read',
  'voice',
  'webhook.incoming',
  'openid.profile',
  'sdk.social_layer',
  'sdk.social_layer_presence',
  'application_identities.write',
  'account.global_name.update',
] as const;

/** Scopes an install (no redirect) may ask for: anything else needs a redirect URI. */
export const INSTALL_SCOPES: readonly string[] = ['bot', 'applications.commands'];
