/**
 * The lobby route tests' server, one per driver (the worker's files share it) (its clock set back to START before each
 * test), and per test a game developer (its app and bot), another developer's app, three players with Bearer tokens of the game's app (sdk.social_layer), and a `call` that
 * checks every answer against the OpenAPI document.
 */
import { generateToken, hashSecret } from '../../src/domain/credentials.js';
import type { Driver } from './drivers.js';
import { expectOpenApiResponse } from './openapi.js';
import { perTest, sharedClock, uniqueName, useFileServer } from './fileServer.js';
import { seedDeveloper, type TestServer } from './testServer.js';
import { recordDispatches, type DispatchRecorder } from './dispatchRecorder.js';
import { apiRequest } from './inject.js';

export const START = Date.UTC(2026, 10, 24, 12);

/** The lobby paths of the OpenAPI document, literal segments before parameters. */
const LOBBY_PATHS = [
  '/lobbies',
  '/lobbies/{lobby_id}',
  '/lobbies/{lobby_id}/channel-linking',
  '/lobbies/{lobby_id}/members/@me',
  '/lobbies/{lobby_id}/members/@me/invites',
  '/lobbies/{lobby_id}/members/bulk',
  '/lobbies/{lobby_id}/members/{user_id}',
  '/lobbies/{lobby_id}/members/{user_id}/invites',
  '/lobbies/{lobby_id}/messages',
  '/lobbies/{lobby_id}/messages/{message_id}/moderation-metadata',
  // Guildhall's own (edit and delete a lobby message): the document has no such operation.
  '/lobbies/{lobby_id}/messages/{message_id}',
  // Guildhall's own: a guild's channels for linking (docs/lobbies.md).
  '/users/@me/guilds/{guild_id}/channels',
];

/** Lobby paths the OpenAPI document does not describe: their answers are not checked by it. */
const GUILDHALL_PATHS = new Set([
  '/lobbies/{lobby_id}/messages/{message_id}',
  '/users/@me/guilds/{guild_id}/channels',
]);

/** The document's path a request path is an instance of. */
function templateOf(path: string): string {
  const segments = path.split('/');
  const found = LOBBY_PATHS.find((template) => {
    const parts = template.split('/');
    return (
      parts.length === segments.length &&
      parts.every((part, i) => part.startsWith('{') || part === segments[i])
    );
  });
  if (found === undefined) throw new Error(`no lobby path for ${path}`);
  return found;
}

interface State {
  server: TestServer;
  dev: Awaited<ReturnType<typeof seedDeveloper>>;
  other: Awaited<ReturnType<typeof seedDeveloper>>;
  players: Record<
    'ann' | 'bob' | 'cat',
    { id: string; username: string; session: string; bearer: string }
  >;
  dispatches: DispatchRecorder;
}

export function useLobbyFixture(driver: Driver) {
  const clock = sharedClock(`lobby:${driver}`, START);
  const shared = useFileServer({ storage: driver, clock }, 'lobby');

  /** A Bearer token of `userId` for the application, with these scopes. */
  const bearer = async (
    server: TestServer,
    userId: string,
    grant: { applicationId: string; scopes?: string[] },
  ) => {
    const { applicationId, scopes = ['sdk.social_layer'] } = grant;
    const token = generateToken(userId, clock.now());
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId,
      applicationId,
      scopes,
      createdAt: clock.now(),
      expiresAt: null,
    });
    return `Bearer ${token}`;
  };

  const current = perTest(
    async (): Promise<State> => {
      clock.set(START);
      const { server } = shared;
      const dev = await seedDeveloper(server.app, uniqueName('gamedev'), 'gamedev app');
      const other = await seedDeveloper(server.app, uniqueName('otherdev'), 'otherdev app');
      const player = async (name: string) => {
        const username = uniqueName(name);
        const session = await server.app.services.auth.register({
          email: `${username}@example.test`,
          username,
          password: 'correct horse battery',
        });
        return {
          id: session.user_id,
          username,
          session: session.token,
          bearer: await bearer(server, session.user_id, { applicationId: dev.applicationId }),
        };
      };
      const players = {
        ann: await player('ann'),
        bob: await player('bob'),
        cat: await player('cat'),
      };
      return { server, dev, other, players, dispatches: await recordDispatches(server.app) };
    },
    ({ dispatches }) => {
      dispatches.stop();
    },
  );

  /**
   * One request: `route` is 'METHOD /path' (ids filled in); the answer is checked against the
   * OpenAPI document's operation of that path.
   */
  const call = async (route: string, auth: string, payload?: unknown) => {
    const [method = 'GET', url = '/'] = route.split(' ');
    const res = await apiRequest(current().server.app, route, { auth, payload });
    const template = templateOf(url.split('?')[0] ?? url);
    if (!GUILDHALL_PATHS.has(template)) expectOpenApiResponse(res, method, template);
    return res;
  };

  return {
    clock,
    call,
    get server() {
      return current().server;
    },
    get app() {
      return current().server.app;
    },
    get dev() {
      return current().dev;
    },
    get other() {
      return current().other;
    },
    get players() {
      return current().players;
    },
    get dispatches() {
      return current().dispatches;
    },
    bot: () => `Bot ${current().dev.botToken}`,
    otherBot: () => `Bot ${current().other.botToken}`,
    bearerFor: (userId: string, applicationId: string, scopes?: string[]) =>
      bearer(current().server, userId, {
        applicationId,
        ...(scopes === undefined ? {} : { scopes }),
      }),
  };
}
