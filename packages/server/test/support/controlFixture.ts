/**
 * The test controls' fixture (control/, docs/testing.md): one listening server per test file and
 * driver, with the controls on, a guild whose owner added their app's bot (ADMINISTRATOR), a
 * person in it, and helpers to call the API, open gateway sessions, register a command and
 * invoke it. After each test the faults, the clock and the log are back as they were.
 *
 * @module
 */
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { PermissionFlags as P } from '@guildhall/protocol';
import type { Driver } from './drivers.js';
import { identifyGateway, type GatewayClient } from './gatewayClient.js';
import { guildFixture, type GuildFixture, type Person } from './guildMembers.js';
import { apiRequest, type ApiMethod } from './inject.js';
import { startTestServer, type TestServer, type TestServerOptions } from './testServer.js';

export interface ControlFixture {
  readonly server: TestServer;
  readonly guild: GuildFixture;
  /** A person in the guild (not its owner). */
  readonly person: Person;
  readonly control: TestServer['app']['control'];
  /** Sends a request to /api/v10 as `auth`. */
  call(
    method: ApiMethod,
    path: string,
    auth: string | undefined,
    payload?: unknown,
  ): Promise<LightMyRequestResponse>;
  /** A gateway session identified with this token, closed after the test. */
  gateway(token: string, intents?: number): Promise<GatewayClient>;
  /** Registers a global chat command of the bot's app; returns its wire. */
  command(name: string): Promise<{ id: string; name: string }>;
  /** Invokes a chat command as `person` in the guild's text channel (204 expected). */
  invoke(person: Person, command: { id: string; name: string }): Promise<void>;
  /** The guild's text channel. */
  channelId(): string;
}

export function useControlFixture(
  driver: Driver,
  options: Pick<TestServerOptions, 'gatewayTimers' | 'gateway' | 'config'> = {},
): ControlFixture {
  let state: { server: TestServer; guild: GuildFixture; person: Person; channelId: string } | null =
    null;
  const clients: GatewayClient[] = [];
  const current = () => {
    if (state === null) throw new Error('no control server: outside a test');
    return state;
  };

  beforeAll(async () => {
    const server = await startTestServer({
      storage: driver,
      listen: true,
      ...options,
      config: { allowLocalWebhooks: true, control: true, ...options.config },
    });
    const guild = await guildFixture(server, { botPermissions: P.ADMINISTRATOR });
    const person = await guild.join('ann');
    const channels = await server.app.storage.channels.listByGuild(guild.guildId);
    const text = channels.find((c) => c.type === 0);
    if (text === undefined) throw new Error('the fixture guild has no text channel');
    state = { server, guild, person, channelId: text.id };
  });
  afterEach(async () => {
    for (const client of clients.splice(0)) client.raw.terminate();
    if (state === null) return;
    const { control } = state.server.app;
    control.faults.clear();
    await control.clock.restore();
    control.log.clear();
  });
  afterAll(async () => {
    await state?.server.close();
    state = null;
  });

  // eslint-disable-next-line max-params -- the verb, path, auth and body of one request
  const call: ControlFixture['call'] = (method, path, auth, payload) =>
    apiRequest(current().server.app, `${method} ${path}`, { auth, payload });

  return {
    get server() {
      return current().server;
    },
    get guild() {
      return current().guild;
    },
    get person() {
      return current().person;
    },
    get control() {
      return current().server.app.control;
    },
    call,
    async gateway(token, intents = 0) {
      const { client } = await identifyGateway(current().server.app.gatewayUrl(), {
        token,
        intents,
      });
      clients.push(client);
      return client;
    },
    async command(name) {
      const { bot } = current().guild;
      const res = await call('POST', `/applications/${bot.applicationId}/commands`, bot.token, {
        name,
        description: `The ${name} command`,
      });
      if (res.statusCode !== 201) throw new Error(`command not created: ${res.body}`);
      return res.json();
    },
    async invoke(person, command) {
      const { guild, channelId } = current();
      const res = await call('POST', '/interactions', person.token, {
        type: 2,
        application_id: guild.bot.applicationId,
        guild_id: guild.guildId,
        channel_id: channelId,
        session_id: 'session-1',
        nonce: `nonce-${command.name}`,
        data: { id: command.id, name: command.name, type: 1 },
      });
      if (res.statusCode !== 204) throw new Error(`not invoked: ${res.body}`);
    },
    channelId: () => current().channelId,
  };
}
