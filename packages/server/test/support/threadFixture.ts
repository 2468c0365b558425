/**
 * The thread and poll route test fixture: one server per driver and file (tests make their own
 * channels), a guild owned by a person whose bot is an administrator, and two more people with
 * the default @everyone permissions. Every answer is checked against the OpenAPI document.
 *
 * @module
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll } from 'vitest';
import { manualClock } from '../../src/domain/clock.js';
import type { Driver } from './drivers.js';
import { guildFixture, type GuildFixture, type Person } from './guildMembers.js';
import { recordDispatches, type DispatchRecorder } from './dispatchRecorder.js';
import { expectSpecResponse } from './guildApi.js';
import { startTestServer, type TestServer } from './testServer.js';

interface State {
  server: TestServer;
  guild: GuildFixture;
  carol: Person;
  dave: Person;
  events: DispatchRecorder;
}

export interface ThreadCall {
  auth: string;
  payload?: unknown;
  reason?: string;
  /** The OpenAPI path template's concrete path to check the answer against (default: path). */
  spec?: string | false;
}

/** Registers the server of one driver for the file's tests; read its fields inside tests. */
export function useThreadFixture(driver: Driver) {
  const clock = manualClock(Date.now());
  let state: State | undefined;
  const current = () => {
    if (state === undefined) throw new Error('no thread server outside a test');
    return state;
  };
  beforeAll(async () => {
    clock.set(Date.now());
    const server = await startTestServer({ storage: driver, clock, timedSweep: false });
    const guild = await guildFixture(server, { botPermissions: P.ADMINISTRATOR });
    const carol = await guild.join('carol');
    const dave = await guild.join('dave');
    state = { server, guild, carol, dave, events: await recordDispatches(server.app) };
  });
  afterAll(async () => {
    const ended = state;
    state = undefined;
    await ended?.server.close();
  });

  /** One request, its answer checked against the OpenAPI document. */
  const call = async (
    method: InjectOptions['method'] & string,
    path: string,
    options: ThreadCall,
  ) => {
    const res = await current().guild.call(method, path, options);
    if (options.spec !== false) expectSpecResponse(res, method, options.spec ?? path);
    return res;
  };

  return {
    /** The server's clock: tests move it to reach an expiry or an auto-archive. */
    clock,
    get app() {
      return current().server.app;
    },
    get guild() {
      return current().guild;
    },
    get owner() {
      return current().guild.owner;
    },
    get bot() {
      return current().guild.bot;
    },
    get carol() {
      return current().carol;
    },
    get dave() {
      return current().dave;
    },
    get events() {
      return current().events;
    },
    call,
    /** A new channel of `type` (0 text, 5 announcement, 15 forum, 16 media) made by the bot. */
    async channel(name: string, type = 0, extra: Record<string, unknown> = {}) {
      const res = await call('POST', `/guilds/${current().guild.guildId}/channels`, {
        auth: current().guild.bot.token,
        payload: { name, type, ...extra },
        spec: false,
      });
      if (res.statusCode !== 201) throw new Error(res.body);
      return res.json<{ id: string; available_tags?: { id: string; name: string }[] }>();
    },
    /** Posts a message as `auth`. */
    async post(auth: string, channelId: string, payload: Record<string, unknown>) {
      const res = await call('POST', `/channels/${channelId}/messages`, { auth, payload });
      return res;
    },
  };
}
