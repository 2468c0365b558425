/**
 * Full accounts for the lobby and guild tests: a person registered on the server (with a session,
 * for the web client's part: making a guild, accepting an invite) who gave the developer's
 * application an SDK token through the OAuth2 code grant (docs/oauth.md: the consent decision as
 * JSON, then the token endpoint).
 *
 * @module
 */
import { uniqueName } from '../../server/test/support/fileServer.js';
import type { Player, SdkWorld } from './support.js';

const REDIRECT = 'http://127.0.0.1/callback';

export interface Person extends Player {
  /** The person's session token (the web client's `Authorization`). */
  session: string;
}

/** Registers `name` and gets them an `openid sdk.social_layer` token of the developer's app. */
export async function fullAccount(world: SdkWorld, name: string): Promise<Person> {
  const { app } = world.server;
  // Unique in the worker: the server is shared with its other SDK files.
  const username = uniqueName(name);
  const registered = await app.services.auth.register({
    email: `${username}@example.test`,
    username,
    password: 'correct horse battery',
  });
  await app.storage.applications.update(world.dev.applicationId, { redirectUris: [REDIRECT] });
  const decision = await world.api<{ location?: string }>('POST', '/oauth2/authorize', {
    auth: registered.token,
    json: {
      client_id: world.dev.applicationId,
      response_type: 'code',
      scope: 'openid sdk.social_layer',
      redirect_uri: REDIRECT,
      state: `state-${name}`,
      authorize: true,
    },
  });
  const code = new URL(decision.body.location ?? 'http://invalid/').searchParams.get('code');
  if (code === null) throw new Error(`no code for ${name}: ${JSON.stringify(decision)}`);
  const response = await fetch(`${world.apiBase}/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: world.dev.applicationId,
      client_secret: world.dev.clientSecret,
    }).toString(),
  });
  const token = ((await response.json()) as { access_token?: string }).access_token;
  if (token === undefined) throw new Error(`no token for ${name} (${response.status})`);
  const me = await world.api<Player['user']>('GET', '/users/@me', { auth: `Bearer ${token}` });
  return { id: registered.user_id, token, user: me.body, session: registered.token };
}

/** A guild made by `owner` through the web client's routes; its channels by name. */
export async function guildOf(
  world: SdkWorld,
  owner: Person,
  name: string,
): Promise<{ id: string; channels: Map<string, string> }> {
  const made = await world.api<{ id: string }>('POST', '/guilds', {
    auth: owner.session,
    json: { name },
  });
  if (made.status !== 201) throw new Error(`guild: ${JSON.stringify(made)}`);
  const listed = await world.api<{ id: string; name: string }[]>(
    'GET',
    `/guilds/${made.body.id}/channels`,
    { auth: owner.session },
  );
  return { id: made.body.id, channels: new Map(listed.body.map((c) => [c.name, c.id])) };
}
