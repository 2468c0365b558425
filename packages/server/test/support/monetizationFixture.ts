/**
 * The world of the monetization tests: one server per driver (per file), and per test a
 * developer with an application and a SKU set, a player with an OAuth2 token of the app, and a
 * guild; `call` answers through Fastify and checks documented operations against the OpenAPI
 * document.
 */
import { afterAll, beforeAll } from 'vitest';
import { manualClock } from '../../src/domain/clock.js';
import { generateToken, hashSecret } from '../../src/domain/credentials.js';
import { expectOpenApiResponse, getOpenApiValidator } from './openapi.js';
import { recordDispatches } from './dispatchRecorder.js';
import { seedDeveloper, startTestServer, type TestServer } from './testServer.js';
import { apiRequest } from './inject.js';

export const START_MS = Date.UTC(2026, 10, 1);

export function useMonetizationFixture(driver: 'sqlite' | 'postgres') {
  const clock = manualClock(START_MS);
  let server: TestServer;
  let counter = 0;
  const state = {
    get server() {
      return server;
    },
    clock,
  };

  beforeAll(async () => {
    server = await startTestServer({ storage: driver, clock });
  });
  afterAll(async () => {
    await server.close();
  });

  /** `'METHOD /path'` with a token; documented operations are checked against the document. */
  const call = async (request: string, auth: string, payload?: unknown) => {
    const [method, url] = request.split(' ') as ['GET' | 'POST' | 'PATCH' | 'DELETE', string];
    const res = await apiRequest(server.app, request, { auth, payload });
    if (getOpenApiValidator().hasOperation(method, url)) expectOpenApiResponse(res, method, url);
    return res;
  };

  const bearer = async (userId: string, applicationId: string, scopes: string[]) => {
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

  /** A developer, an app with durable, consumable and subscription SKUs, a player and a guild. */
  const world = async () => {
    counter += 1;
    const dev = await seedDeveloper(server.app, `dev${String(counter)}`);
    const session = await server.app.services.auth.register({
      email: `player${String(counter)}@example.test`,
      username: `player${String(counter)}`,
      password: 'correct horse battery',
    });
    const player = { userId: session.user_id, token: session.token };
    const guild = await server.app.services.guilds.create({
      ownerId: player.userId,
      name: `guild ${String(counter)}`,
      channels: [{ name: 'general', type: 'text' }],
    });
    const sku = async (body: Record<string, unknown>) => {
      const res = await call(`POST /applications/${dev.applicationId}/skus`, dev.userToken, body);
      if (res.statusCode !== 201) throw new Error(`SKU not created: ${res.body}`);
      return res.json<{ id: string; type: number; flags: number; slug: string }>();
    };
    const skus = {
      durable: await sku({ name: 'Sword', type: 2 }),
      consumable: await sku({ name: 'Potion', type: 3 }),
      subscription: await sku({ name: 'Premium', type: 5 }),
      guildSubscription: await sku({ name: 'Guild Premium', type: 5, flags: 4 | 128 }),
    };
    return {
      dev,
      player,
      guildId: guild.guild.id,
      skus,
      bot: `Bot ${dev.botToken}`,
      playerToken: await bearer(player.userId, dev.applicationId, [
        'identify',
        'applications.entitlements',
      ]),
      dispatches: await recordDispatches(server.app),
    };
  };

  return { state, call, bearer, world };
}
