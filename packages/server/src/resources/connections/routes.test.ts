import { beforeEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import { generateToken, hashSecret } from '../../domain/credentials.js';
import type { ConnectionRecord } from '../../storage/index.js';
import { uniqueName, useFileServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { LEGACY_CONNECTIONS_HIDDEN_FROM_MS } from './rules.js';
import { apiRequest } from '../../../test/support/inject.js';

const URL = '/users/@me/connections';
const BEFORE_A = LEGACY_CONNECTIONS_HIDDEN_FROM_MS.A - 1;
const BEFORE_B = LEGACY_CONNECTIONS_HIDDEN_FROM_MS.B - 1;

describeDrivers('GET /users/@me/connections on $driver', (driver) => {
  let server: TestServer;
  let dev: Awaited<ReturnType<typeof seedDeveloper>>;
  const clock = manualClock(Date.UTC(2026, 0, 1));

  const shared = useFileServer({ storage: driver, clock });
  beforeEach(async () => {
    clock.set(Date.UTC(2026, 0, 1));
    server = shared.server;
    dev = await seedDeveloper(server.app, uniqueName('dev'), 'dev app');
  });

  /** OAuth2 is another branch's: tokens with scopes are made through storage directly. */
  const bearer = async (scopes: string[]) => {
    const token = generateToken(dev.userId, clock.now());
    await server.app.storage.tokens.create({
      hash: hashSecret(token),
      kind: 'bearer',
      userId: dev.userId,
      applicationId: dev.applicationId,
      scopes,
      createdAt: clock.now(),
      expiresAt: null,
    });
    return `Bearer ${token}`;
  };
  const connect = (type: string, extra: Partial<ConnectionRecord> = {}) =>
    server.app.services.connections.add({
      userId: dev.userId,
      type,
      id: `${type}-account`,
      name: `${type} name`,
      verified: true,
      friendSync: false,
      showActivity: true,
      twoWayLink: false,
      visibility: 1,
      revoked: false,
      publisherKind: null,
      applicationIdentity: false,
      ...extra,
    });
  const list = async (auth: string) => {
    const res = await apiRequest(server.app, `GET ${URL}`, { auth });
    expectOpenApiResponse(res, 'GET', URL);
    return res;
  };
  const types = async (auth: string) =>
    (await list(auth)).json<{ type: string }[]>().map((c) => c.type);

  it('lists connections to a Bearer token with the connections scope', async () => {
    await connect('github');
    const res = await list(await bearer(['identify', 'connections']));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual([
      {
        id: 'github-account',
        name: 'github name',
        type: 'github',
        verified: true,
        friend_sync: false,
        show_activity: true,
        two_way_link: false,
        visibility: 1,
        revoked: false,
      },
    ]);
    // A session reads its own user's.
    expect(await types(dev.userToken)).toEqual(['github']);
  });

  it('refuses tokens without the scope, bots, and no token', async () => {
    const noScope = await list(await bearer(['identify']));
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json<{ code: number }>().code).toBe(50026);
    const bot = await list(`Bot ${dev.botToken}`);
    expect(bot.json<{ code: number }>().code).toBe(20001);
    const nobody = await list('');
    expect(nobody.statusCode).toBe(401);
  });

  it('never lists game-publisher connections made through application identities', async () => {
    await connect('riotgames', { publisherKind: 'A', applicationIdentity: true });
    await connect('battlenet', { publisherKind: 'B', applicationIdentity: true });
    await connect('github');
    clock.set(Date.UTC(2026, 0, 1));
    expect(await types(dev.userToken)).toEqual(['github']);
  });

  it('stops listing legacy kind A on July 10, 2026 and kind B on September 22, 2026', async () => {
    await connect('riotgames', { publisherKind: 'A' });
    await connect('battlenet', { publisherKind: 'B' });
    await connect('steam');
    const auth = await bearer(['connections']);
    clock.set(BEFORE_A);
    expect(await types(auth)).toEqual(['battlenet', 'riotgames', 'steam']);
    clock.set(LEGACY_CONNECTIONS_HIDDEN_FROM_MS.A);
    expect(await types(auth)).toEqual(['battlenet', 'steam']);
    clock.set(BEFORE_B);
    expect(await types(auth)).toEqual(['battlenet', 'steam']);
    clock.set(LEGACY_CONNECTIONS_HIDDEN_FROM_MS.B);
    expect(await types(auth)).toEqual(['steam']);
  });
});

describe('the dates of the game-publisher rule', () => {
  it('are midnight UTC of the spec’s days', () => {
    expect(new Date(LEGACY_CONNECTIONS_HIDDEN_FROM_MS.A).toISOString()).toBe(
      '2026-07-10T00:00:00.000Z',
    );
    expect(new Date(LEGACY_CONNECTIONS_HIDDEN_FROM_MS.B).toISOString()).toBe(
      '2026-09-22T00:00:00.000Z',
    );
  });
});
