/**
 * The platform's OAuth2 scopes and what each lets an app do, in the words a consent screen shows
 * ("This will allow <app> to: …"): the server's consent pages and discovery document, the web
 * client's activity consent and the portal's URL generator all read this one table.
 *
 * @module
 */

/**
 * Every scope the platform knows (docs/platform-notes.md#oauth2), in this order, with the sentence
 * that names it on a consent screen.
 */
export const OAUTH2_SCOPES: Readonly<Record<string, string>> = {
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

/** A scope as a consent screen names it: its sentence, or the scope itself when unknown. */
export function scopeDescription(scope: string): string {
  return OAUTH2_SCOPES[scope] ?? scope;
}
