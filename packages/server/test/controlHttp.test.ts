/**
 * The controls over HTTP (docs/testing.md#http-controls): who may call them, the OpenAPI
 * document they are served with (the committed copy the same), and the clock, faults, tokens and
 * log through them, every answer checked against that document.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTROL_OPENAPI } from '../src/control/openapi.js';
import { hashSecret } from '../src/domain/credentials.js';
import { useControlFixture } from './support/controlFixture.js';
import { describeDrivers } from './support/drivers.js';
import { createOpenApiValidator } from './support/openapi.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';

const BASE = '/_guildhall/v1';
const ADMIN_TOKEN = 'a'.repeat(40);
const COMMITTED = new URL('../../../docs/testing-control.openapi.json', import.meta.url);
const validator = createOpenApiValidator(CONTROL_OPENAPI);

/** Asserts an answer is what the controls' document says for it. */
function expectDocumented(res: LightMyRequestResponse, method: string, path: string) {
  const body = res.body === '' ? undefined : (JSON.parse(res.body) as unknown);
  const result = validator.validateResponse({ method, path, status: res.statusCode, body });
  if (!result.ok) throw new Error(`${method} ${path}: ${result.errors.join('\n')}`);
}

describeDrivers('the controls over HTTP ($driver)', (driver) => {
  const f = useControlFixture(driver, { config: { adminTokenHash: hashSecret(ADMIN_TOKEN) } });

  /** A control request, from this machine unless `remote` says otherwise; checked by the document. */
  const control = async (
    method: 'GET' | 'POST' | 'DELETE',
    path: string,
    options: { payload?: unknown; headers?: Record<string, string>; remote?: boolean } = {},
  ) => {
    const res = await f.server.app.http.inject({
      method,
      url: `${BASE}${path}`,
      ...(options.payload === undefined ? {} : { payload: options.payload as object }),
      headers: options.headers ?? {},
      remoteAddress: options.remote === true ? '203.0.113.9' : '127.0.0.1',
    });
    expectDocumented(res, method, path.split('?')[0] ?? path);
    return res;
  };

  it('answers this machine and the operator token, and no one else', async () => {
    expect((await control('GET', '/clock')).statusCode).toBe(200);
    expect((await control('GET', '/clock', { remote: true })).statusCode).toBe(401);
    // Through a proxy on this machine: not this machine's client.
    const proxied = await control('GET', '/clock', {
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(proxied.statusCode).toBe(401);
    const admin = { authorization: `Admin ${ADMIN_TOKEN}` };
    expect((await control('GET', '/clock', { remote: true, headers: admin })).statusCode).toBe(200);
    const wrong = { authorization: `Admin ${'b'.repeat(40)}` };
    expect((await control('GET', '/clock', { remote: true, headers: wrong })).statusCode).toBe(401);
  });

  it('serves its OpenAPI document, the same as the committed one', async () => {
    const res = await control('GET', '/openapi.json');
    const committed = JSON.parse(readFileSync(COMMITTED, 'utf8')) as unknown;
    expect(res.json(), 'docs/testing-control.openapi.json is stale: see docs/testing.md').toEqual(
      committed,
    );
    expect(committed).toEqual(JSON.parse(JSON.stringify(CONTROL_OPENAPI)));
  });

  it('freezes, advances and sets the clock, and names a bad duration', async () => {
    const frozen = (await control('POST', '/clock/freeze', { payload: {} })).json<{
      nowMs: number;
    }>();
    const advanced = await control('POST', '/clock/advance', { payload: { by: '15m' } });
    expect(advanced.json()).toMatchObject({ nowMs: frozen.nowMs + 15 * 60_000, frozen: true });
    // A day on, not years: by then the sweep would end the fixture's session tokens.
    const tomorrow = new Date(frozen.nowMs + 24 * 3600_000).toISOString();
    const set = await control('POST', '/clock/set', { payload: { to: tomorrow } });
    expect(set.json()).toMatchObject({ now: tomorrow });
    const bad = await control('POST', '/clock/advance', { payload: { by: 'a while' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({
      code: 50035,
      errors: { by: { _errors: [{ code: 'CONTROL_INPUT_INVALID' }] } },
    });
    const resumed = await control('POST', '/clock/resume');
    expect(resumed.json()).toMatchObject({ frozen: false });
    expect(f.control.clock.state().frozen).toBe(false);
  });

  it('adds, lists, counts and removes faults', async () => {
    const bad = await control('POST', '/faults', {
      payload: { kind: 'http', path: 'no-slash', type: 'drop' },
    });
    expect(bad.json()).toMatchObject({ code: 50035, errors: { path: {} } });
    const added = await control('POST', '/faults', {
      payload: {
        kind: 'http',
        method: 'get',
        path: '/users/@me',
        type: 'serverError',
        status: 502,
      },
    });
    expect(added.statusCode).toBe(201);
    const fault = added.json<{ id: string; method: string }>();
    expect(fault.method).toBe('GET');
    expect((await f.call('GET', '/users/@me', f.person.token)).statusCode).toBe(502);
    expect((await control('GET', `/faults/${fault.id}`)).json()).toMatchObject({ fired: 1 });
    expect((await control('GET', '/faults')).json()).toMatchObject({ faults: [{ id: fault.id }] });
    expect((await control('DELETE', `/faults/${fault.id}`)).statusCode).toBe(204);
    expect((await control('DELETE', `/faults/${fault.id}`)).statusCode).toBe(404);
    expect((await f.call('GET', '/users/@me', f.person.token)).statusCode).toBe(200);
  });

  it('expires and revokes tokens now: their requests and sessions end', async () => {
    const dev = await seedDeveloper(f.server.app, `tokens-${driver}`);
    const session = await f.gateway(`Bot ${dev.botToken}`);
    const revoked = await control('POST', '/tokens/revoke', {
      payload: { token: `Bot ${dev.botToken}` },
    });
    expect(revoked.json()).toEqual({ kind: 'bot', outcome: 'revoked' });
    expect((await session.closed).code).toBe(4004);
    expect((await f.call('GET', '/users/@me', `Bot ${dev.botToken}`)).statusCode).toBe(401);

    const expired = await control('POST', '/tokens/expire', { payload: { token: dev.userToken } });
    expect(expired.json()).toEqual({ kind: 'session', outcome: 'expired' });
    expect((await f.call('GET', '/users/@me', dev.userToken)).statusCode).toBe(401);
    const again = await control('POST', '/tokens/expire', { payload: { token: dev.userToken } });
    expect(again.json()).toMatchObject({ code: 50035 });
  });

  it('expires an interaction token now', async () => {
    const command = await f.command('expiring');
    const bot = await f.gateway(f.guild.bot.token, 1);
    await f.invoke(f.guild.owner, command);
    const { id, token } = (await bot.dispatch('INTERACTION_CREATE')).d as {
      id: string;
      token: string;
    };
    const expired = await control('POST', '/tokens/expire', { payload: { token } });
    expect(expired.json()).toEqual({ kind: 'interaction', outcome: 'expired' });
    const late = await f.call('POST', `/interactions/${id}/${token}/callback`, undefined, {
      type: 5,
    });
    expect(late.json()).toMatchObject({ code: 10062 });
  });

  it('loads a world from YAML; a reset takes back faults, clock and log', async () => {
    const load = await f.server.app.http.inject({
      method: 'POST',
      url: `${BASE}/worlds?seed=http`,
      headers: { 'content-type': 'application/yaml' },
      payload: 'people:\n  zed:\n    global_name: Zed\n',
    });
    if (driver === 'postgres') {
      // A reset returns to a copy of SQLite in memory; PostgreSQL's state is not the process's.
      expect(load.json()).toMatchObject({
        errors: { reset: { _errors: [{ code: 'RESET_UNSUPPORTED' }] } },
      });
      return;
    }
    expectDocumented(load, 'POST', '/worlds');
    expect(load.statusCode).toBe(201);
    const world = load.json<{ seed: string; people: { zed: { id: string; token: string } } }>();
    expect(world.seed).toBe('http');
    expect((await f.call('GET', '/users/@me', world.people.zed.token)).json()).toMatchObject({
      id: world.people.zed.id,
    });
    const bad = await control('POST', '/worlds', { payload: { people: { zed: { nope: 1 } } } });
    expect(bad.json()).toMatchObject({
      errors: { world: { _errors: [{ code: 'WORLD_INVALID' }] } },
    });

    f.control.faults.add({ kind: 'http', path: '/**', type: 'latency', ms: 0 });
    await f.control.clock.freeze();
    await f.control.clock.advance('1h');
    expect((await control('POST', '/reset')).statusCode).toBe(204);
    expect(f.control.faults.list()).toEqual([]);
    expect(f.control.clock.state()).toMatchObject({ frozen: false });
    expect(Math.abs(f.control.clock.state().offsetMs)).toBeLessThan(60_000);
    expect(f.control.log.entries()).toEqual([]);
    expect((await control('GET', '/worlds')).json()).toMatchObject({ worlds: [{ seed: 'http' }] });
  });

  it('reads and clears the log of a bot', async () => {
    await f.call('GET', '/users/@me', f.guild.bot.token);
    const log = await control('GET', `/log?botId=${f.guild.bot.userId}&kind=http`);
    const { recording, entries } = log.json<{ recording: boolean; entries: { path: string }[] }>();
    expect(recording).toBe(true);
    expect(entries.map((entry) => entry.path)).toEqual(['/api/v10/users/@me']);
    expect((await control('GET', '/log?kind=nonsense')).statusCode).toBe(400);
    expect((await control('DELETE', '/log')).statusCode).toBe(204);
    expect((await control('GET', '/log')).json()).toMatchObject({ entries: [] });
  });
});

describe('the controls turned off', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ config: { control: false } });
  });
  afterAll(async () => {
    await server.close();
  });

  it('are not served, and the log records nothing', async () => {
    const res = await server.app.http.inject({ method: 'GET', url: `${BASE}/clock` });
    expect(res.statusCode).toBe(404);
    const dev = await seedDeveloper(server.app, 'quiet');
    await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/users/@me',
      headers: { authorization: `Bot ${dev.botToken}` },
    });
    expect(server.app.control.log.entries()).toEqual([]);
    // In process the clock and faults still work.
    const fault = server.app.control.faults.add({ kind: 'http', path: '/users/@me', type: 'drop' });
    expect(server.app.control.faults.list()).toEqual([fault]);
  });
});
