import type { ApplicationRecord } from '../storage/index.js';
import { MAX_ECHOED_LENGTH, OAuthError } from './errors.js';

/**
 * Every scope the platform knows (docs/platform-notes.md#oauth2), with the words the consent page
 * shows.
 */
export const SCOPES: Readonly<Record<string, string>> = {
  openid: 'Sign you in with your account (OpenID Connect)',
  identify: 'Access your username, avatar and banner',
  email: 'Access your email address',
  guilds: 'Know what servers you are in',
  'guilds.join': 'Join servers for you',
  'guilds.members.read': 'Read your member info (nickname, avatar, roles) in your servers',
  connections: 'Access your third-party connections',
  bot: 'Add a bot to a server',
  'applications.commands': 'Create commands',
  'applications.commands.update': 'Update its own commands',
  'applications.commands.permissions.update': 'Update command permissions',
  'applications.builds.read': 'Read build data',
  'applications.builds.upload': 'Upload builds',
  'applications.entitlements': 'Read your entitlements for its games',
  'applications.store.update': 'Update its store listings',
  'relationships.read': 'Know who your friends are',
  'relationships.write': 'Manage friend requests for you',
  'identify.premium': 'Know your real subscription type',
  'role_connections.write': 'Update your linked-role metadata',
  'dm_channels.read': 'See your direct messages',
  'dm_channels.messages.read': 'Read your direct messages',
  'dm_channels.messages.write': 'Send direct messages for you',
  'activities.read': 'See your activities',
  'activities.write': 'Update your activity',
  'presences.read': 'See the presence of your friends',
  'presences.write': 'Update your presence',
  'gdm.join': 'Join group DMs for you',
  'lobbies.write': 'Create and join game lobbies for you',
  'messages.read': 'Read messages from your local client',
  rpc: 'Talk to your running client for you (RPC)',
  'rpc.activities.write': 'Update your activity through your running client',
  'rpc.notifications.read': 'Read your notifications through your running client',
  'rpc.voice.read': 'Read your voice settings through your running client',
  'rpc.voice.write': 'Change your voice settings through your running client',
  'rpc.screenshare.read': 'See your screen-share state through your running client',
  'rpc.screenshare.write': 'Change your screen-share state through your running client',
  'rpc.video.read': 'See your camera state through your running client',
  'rpc.video.write': 'Change your camera state through your running client',
  voice: 'Connect to voice for you',
  'webhook.incoming': 'Create a webhook in a channel',
  'openid.profile': 'Share your profile in ID tokens',
  'sdk.social_layer': 'Use social features in the game (friends, presence, lobbies, voice, DMs)',
  'sdk.social_layer_presence': 'Show your presence and friends in the game',
  'application_identities.write': 'Write game stats for your account',
  'account.global_name.update': 'Update your display name',
};

/**
 * What the Social SDK meta-scopes stand for. `sdk.social_layer_presence` covers presence, friends,
 * rich presence and account linking; `sdk.social_layer` adds lobbies, voice, DMs and linked
 * channels on top. Both keep themselves in the granted set. Documented in docs/oauth.md.
 */
export const SCOPE_EXPANSIONS: Readonly<Record<string, readonly string[]>> = {
  'sdk.social_layer_presence': [
    'identify',
    'openid',
    'relationships.read',
    'relationships.write',
    'presences.read',
    'presences.write',
    'activities.read',
    'activities.write',
    'application_identities.write',
    'account.global_name.update',
  ],
  'sdk.social_layer': [
    'sdk.social_layer_presence',
    'identify',
    'openid',
    'relationships.read',
    'relationships.write',
    'presences.read',
    'presences.write',
    'activities.read',
    'activities.write',
    'application_identities.write',
    'account.global_name.update',
    'dm_channels.read',
    'dm_channels.messages.read',
    'dm_channels.messages.write',
    'lobbies.write',
    'gdm.join',
    'voice',
  ],
};

/** Scopes only an approved application may request. */
export const RESTRICTED_SCOPES: ReadonlySet<string> = new Set(['identify.premium']);

/**
 * Why the application may not ask for one of `requested`, or null when it may:
 * `identify.premium` needs an operator's approval; `relationships.read` asked for by name (the
 * Activities case) needs the Social SDK terms accepted in the app's Social SDK settings, or the
 * operator's Social SDK approval (spec, OAuth2 scopes). The Social SDK meta-scopes that expand
 * to it are the SDK's own request and are not held to this.
 */
export function scopeRefusal(
  application: ApplicationRecord,
  requested: readonly string[],
): OAuthError | null {
  const restricted = requested.find((scope) => RESTRICTED_SCOPES.has(scope));
  if (restricted !== undefined && !application.identifyPremiumApproved) {
    return new OAuthError('invalid_scope', `${restricted} needs the platform's approval.`);
  }
  if (
    requested.includes('relationships.read') &&
    !application.socialSdkTermsAccepted &&
    !application.socialApproved
  ) {
    return new OAuthError(
      'invalid_scope',
      'relationships.read needs the Social SDK terms accepted in the application settings.',
    );
  }
  return null;
}

/** Splits a space-separated scope string; an unknown scope or an empty list is invalid_scope. */
export function parseScopes(raw: string | undefined): string[] {
  const scopes = [...new Set((raw ?? '').split(/[ +]/).filter((s) => s.length > 0))];
  if (scopes.length === 0) throw new OAuthError('invalid_scope', 'No scope was requested.');
  const unknown = scopes.find((scope) => SCOPES[scope] === undefined);
  if (unknown !== undefined) {
    throw new OAuthError('invalid_scope', `Unknown scope: ${unknown.slice(0, MAX_ECHOED_LENGTH)}.`);
  }
  return scopes;
}

/** The scopes with the Social SDK meta-scopes expanded, sorted, without duplicates. */
export function expandScopes(scopes: readonly string[]): string[] {
  const out = new Set<string>();
  for (const scope of scopes) {
    out.add(scope);
    for (const implied of SCOPE_EXPANSIONS[scope] ?? []) out.add(implied);
  }
  return [...out].sort();
}
