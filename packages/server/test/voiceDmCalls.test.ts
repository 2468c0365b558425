/**
 * A DM call between two real voice clients (support/dmCallClients.ts): each person's own gateway
 * session and an unchanged @discordjs/voice 0.19 connection with DAVE. The caller's join rings
 * the callee (CALL_CREATE), the callee accepts by joining, and a tone of a frequency this test
 * picks crosses the relay, end-to-end encrypted, and is measured back at the callee; both
 * hanging up ends the call (CALL_DELETE).
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectChild } from './support/children.js';
import { apiRequest } from './support/inject.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENTS = fileURLToPath(new URL('./support/dmCallClients.ts', import.meta.url));

let server: TestServer;
let caller: { userId: string; userToken: string };
let callee: { userId: string; userToken: string };
let dmId: string;

beforeAll(async () => {
  server = await startTestServer({ listen: true });
  const { app } = server;
  [caller, callee] = [await seedDeveloper(app, 'caller'), await seedDeveloper(app, 'callee')];
  // Friends, as the web client makes them, then the DM between them.
  for (const [from, to] of [
    [caller, callee],
    [callee, caller],
  ] as const) {
    const res = await apiRequest(app, `PUT /users/@me/relationships/${to.userId}`, {
      auth: from.userToken,
      payload: {},
    });
    expect(res.statusCode, res.body).toBe(204);
  }
  const dm = await apiRequest(app, 'POST /users/@me/channels', {
    auth: caller.userToken,
    payload: { recipient_id: callee.userId },
  });
  expect(dm.statusCode, dm.body).toBe(200);
  dmId = dm.json<{ id: string }>().id;
});
afterAll(async () => {
  await server.close();
});

describe('a DM call with @discordjs/voice 0.19 and DAVE', () => {
  it('rings the callee, and carries a tone from caller to callee once accepted', async () => {
    const voice = server.app.voice;
    if (voice === null) throw new Error('the test server runs no voice node');
    const frequency = 300 + Math.floor(Math.random() * 400);
    const args = [server.app.gatewayUrl(), caller.userToken, callee.userToken, dmId];
    const child = spawn(process.execPath, ['--import', 'tsx', CLIENTS, ...args, `${frequency}`], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        TSX_TSCONFIG_PATH: 'tsconfig.test.json',
        NODE_EXTRA_CA_CERTS: (await voice.tls()).certPath,
      },
      stdio: 'pipe',
    });
    const result = await collectChild(child);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const heard = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as {
      ringing: string[];
      frames: number;
      undecodable: number;
      hz: number;
      seconds: number;
      callDeleted: boolean;
    };
    expect(heard.ringing).toEqual([callee.userId]);
    expect(heard.frames).toBeGreaterThan(150);
    expect(heard.undecodable).toBe(0);
    expect(heard.seconds).toBeGreaterThan(3);
    expect(Math.abs(heard.hz - frequency)).toBeLessThan(frequency * 0.02);
    expect(heard.callDeleted).toBe(true);
  }, 90_000);
});
