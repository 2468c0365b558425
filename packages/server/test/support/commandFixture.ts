/**
 * The command route tests' server, one per driver (the worker's files share it), and per test: a guild owned by a developer whose app's bot is in it
 * (installed), a second guild without that bot, another developer's app, Bearer tokens made on
 * demand, and a `call` that checks every answer against the OpenAPI document.
 */
import { generateToken, hashSecret } from '../../src/domain/credentials.js';
import type { Driver } from './drivers.js';
import { guildFixture, type GuildFixture } from './guildMembers.js';
import { recordDispatches, type DispatchRecorder } from './dispatchRecorder.js';
import { expectOpenApiResponse } from './openapi.js';
import { perTest, uniqueName, useFileServer } from './fileServer.js';
import { seedDeveloper, type TestServer } from './testServer.js';
import { apiRequest } from './inject.js';

interface State {
  server: TestServer;
  guild: GuildFixture;
  /** A guild of the same owner without the app's bot. */
  bareGuildId: string;
  other: Awaited<ReturnType<typeof seedDeveloper>>;
  dispatches: DispatchRecorder;
}

export function useCommandFixture(driver: Driver) {
  const shared = useFileServer({ storage: driver }, 'api');
  const current = perTest(
    async (): Promise<State> => {
      const { server } = shared;
      const guild = await guildFixture(server, { botPermissions: 0n });
      const bare = await server.app.services.guilds.create({
        ownerId: guild.owner.userId,
        name: 'No bot here',
        channels: [{ name: 'general', type: 'text' }],
      });
      const other = await seedDeveloper(server.app, uniqueName('other'));
      return {
        server,
        guild,
        bareGuildId: bare.guild.id,
        other,
        dispatches: await recordDispatches(server.app),
      };
    },
    ({ dispatches }) => {
      dispatches.stop();
    },
  );

  /** A Bearer token of `userId` for the fixture's application (or another), with these scopes. */
  const bearer = async (userId: string, scopes: string[], applicationId?: string) => {
    const { server, guild } = current();
    const token = generateToken(userId, Date.now());
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId,
      applicationId: applicationId ?? guild.bot.applicationId,
      scopes,
      createdAt: Date.now(),
      expiresAt: null,
    });
    return `Bearer ${token}`;
  };

  /**
   * One request: `route` is 'METHOD /path' under /api/v10 (ids filled in); the answer is
   * checked against the OpenAPI document's operation of that path.
   */
  const call = async (
    route: string,
    auth: string,
    options: { payload?: unknown; headers?: Record<string, string> } = {},
  ) => {
    const [method = 'GET', url = '/'] = route.split(' ');
    const res = await apiRequest(current().server.app, route, { auth, ...options });
    expectOpenApiResponse(res, method, url.split('?')[0] ?? url);
    return res;
  };

  return {
    call,
    bearer,
    get app() {
      return current().server.app;
    },
    get guild() {
      return current().guild;
    },
    get appId() {
      return current().guild.bot.applicationId;
    },
    get bot() {
      return current().guild.bot.token;
    },
    get bareGuildId() {
      return current().bareGuildId;
    },
    get other() {
      return current().other;
    },
    get dispatches() {
      return current().dispatches;
    },
  };
}
