/**
 * HTTP and delivery faults through the real paths (docs/testing.md#faults): 429s with the
 * platform's headers that @discordjs/rest waits out, server errors it retries, latency, dropped
 * connections, each scoped and counted and written to the log; an app's interactions endpoint
 * and webhook-events URL seen failing or timing out.
 *
 * @module
 */
import { REST } from '@discordjs/rest';
import { Routes, type APIUser } from 'discord-api-types/v10';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { webhookEventData } from '../src/delivery/webhookEvents.js';
import { useControlFixture } from './support/controlFixture.js';
import { describeDrivers } from './support/drivers.js';
import { startInteractionEndpoint } from './support/interactionEndpoint.js';
import { startWebhookReceiver } from './support/webhookReceiver.js';

describeDrivers('HTTP and delivery faults ($driver)', (driver) => {
  const f = useControlFixture(driver);
  let rest: REST;

  beforeAll(() => {
    rest = new REST({ api: `${f.server.baseUrl}/api`, version: '10', retries: 1 }).setToken(
      f.guild.bot.token.replace(/^Bot /, ''),
    );
  });
  afterAll(() => {
    rest.clearHashSweeper();
    rest.clearHandlerSweeper();
  });

  const statuses = (path: string) =>
    f.control.log
      .entries({ botId: f.guild.bot.userId, kind: 'http' })
      .filter((entry) => entry.kind === 'http' && entry.path === `/api/v10${path}`)
      .map((entry) => (entry.kind === 'http' ? entry.status : 0));

  it('answers a 429 of its scope that @discordjs/rest waits out and retries', async () => {
    const fault = f.control.faults.add({
      kind: 'http',
      method: 'GET',
      path: '/users/@me',
      type: 'rateLimit',
      scope: 'shared',
      retryAfter: 1,
      times: 1,
      botId: f.guild.bot.userId,
    });
    // Another caller is not the bot: served.
    expect((await f.call('GET', '/users/@me', f.person.token)).statusCode).toBe(200);
    expect(f.control.faults.get(fault.id)?.fired).toBe(0);

    const me = (await rest.get(Routes.user('@me'))) as APIUser;
    expect(me.id).toBe(f.guild.bot.userId);
    // Fired once, then spent and gone.
    expect(f.control.faults.get(fault.id)).toBeUndefined();
    expect(statuses('/users/@me')).toEqual([429, 200]);
    const [limited] = f.control.log.entries({ botId: f.guild.bot.userId, kind: 'http' });
    expect(limited).toMatchObject({
      faultId: fault.id,
      response: { message: 'You are being rate limited.', retry_after: 1, global: false },
    });
  });

  it('logs a request as read: its body without secrets, the answer parsed', async () => {
    const path = `/channels/${f.channelId()}/messages`;
    const sent = await f.call('POST', path, f.guild.bot.token, { content: 'hi', token: 'hush' });
    expect(sent.statusCode).toBe(200);
    const [entry] = f.control.log
      .entries({ botId: f.guild.bot.userId, kind: 'http' })
      .filter((e) => e.kind === 'http' && e.path === `/api/v10${path}`);
    expect(entry).toMatchObject({
      method: 'POST',
      status: 200,
      request: { content: 'hi', token: '[redacted]' },
      response: { id: sent.json<{ id: string }>().id, content: 'hi' },
    });
    expect(JSON.stringify(entry)).not.toContain('hush');
  });

  it("sends each scope's headers and body, and counts what fired", async () => {
    const user = f.control.faults.add({
      kind: 'http',
      path: '/channels/*',
      type: 'rateLimit',
      retryAfter: 1.5,
      bucket: 'abc123',
    });
    const first = await f.call('GET', `/channels/${f.channelId()}`, f.person.token);
    expect(first.statusCode).toBe(429);
    expect(first.headers).toMatchObject({
      'retry-after': '2',
      'x-ratelimit-limit': '1',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset-after': '1.500',
      'x-ratelimit-bucket': 'abc123',
      'x-ratelimit-scope': 'user',
    });
    expect(first.json()).toEqual({
      message: 'You are being rate limited.',
      retry_after: 1.5,
      global: false,
      code: 0,
    });
    // `*` is one segment: the messages below the channel are not matched.
    const deeper = await f.call('GET', `/channels/${f.channelId()}/messages`, f.person.token);
    expect(deeper.statusCode).toBe(200);
    expect(f.control.faults.get(user.id)?.fired).toBe(1);
    expect(f.control.faults.remove(user.id)).toBe(true);

    f.control.faults.add({ kind: 'http', path: '/**', type: 'rateLimit', scope: 'global' });
    const global = await f.call('GET', `/channels/${f.channelId()}/messages`, f.person.token);
    expect(global.statusCode).toBe(429);
    expect(global.headers).toMatchObject({
      'x-ratelimit-global': 'true',
      'x-ratelimit-scope': 'global',
    });
    expect(global.json()).toMatchObject({ global: true, retry_after: 1 });
    expect(f.control.faults.list()).toHaveLength(1);
  });

  it('answers server errors, which @discordjs/rest retries, and waits out latency', async () => {
    f.control.faults.add({
      kind: 'http',
      method: 'POST',
      path: '/channels/*/messages',
      type: 'serverError',
      status: 503,
      times: 1,
    });
    const latency = f.control.faults.add({
      kind: 'http',
      path: '/channels/*/messages',
      type: 'latency',
      ms: 20,
    });
    const sent = (await rest.post(Routes.channelMessages(f.channelId()), {
      body: { content: 'after a 503' },
    })) as { content: string };
    expect(sent.content).toBe('after a 503');
    expect(statuses(`/channels/${f.channelId()}/messages`)).toEqual([503, 200]);
    const [failed] = f.control.log.entries({ botId: f.guild.bot.userId, kind: 'http' });
    expect(failed).toMatchObject({
      route: '/api/v10/channels/:channel_id/messages',
      request: { content: 'after a 503' },
      response: { message: '503: Service Unavailable', code: 0 },
    });
    // Latency delays both requests and serves them.
    expect(f.control.faults.get(latency.id)?.fired).toBe(2);
  });

  it('drops the connection without an answer', async () => {
    f.control.faults.add({ kind: 'http', path: '/users/@me', type: 'drop', times: 1 });
    const request = () =>
      fetch(`${f.server.baseUrl}/api/v10/users/@me`, {
        headers: { authorization: f.guild.bot.token },
      });
    await expect(request()).rejects.toThrow(/fetch failed/);
    expect((await request()).status).toBe(200);
  });

  it('sees an interactions endpoint fail, or time out by the platform clock', async () => {
    const app = await f.server.app.storage.applications.findById(f.guild.bot.applicationId);
    const endpoint = await startInteractionEndpoint(app?.verifyKey ?? '', () => ({
      json: { type: 4, data: { content: 'answered' } },
    }));
    const setUrl = (url: string | null) =>
      f.call('PATCH', '/applications/@me', f.guild.bot.token, { interactions_endpoint_url: url });
    try {
      expect((await setUrl(endpoint.url)).statusCode).toBe(200);
      const command = await f.command('endpointed');
      const owner = await f.gateway(f.guild.owner.token);
      const failures = () =>
        owner.frames.filter((frame) => frame.t === 'INTERACTION_FAILURE').length;

      f.control.faults.add({
        kind: 'delivery',
        target: 'interactions',
        failure: 'status',
        status: 500,
        times: 1,
      });
      await f.invoke(f.guild.owner, command);
      await owner.dispatch('INTERACTION_FAILURE');

      await f.control.clock.freeze();
      f.control.faults.add({
        kind: 'delivery',
        target: 'interactions',
        failure: 'timeout',
        times: 1,
      });
      await f.invoke(f.guild.owner, command);
      expect(failures()).toBe(1);
      await f.control.clock.advance('3s');
      await owner.next((frame) => frame.t === 'INTERACTION_FAILURE' && failures() === 2);
      // Neither reached the endpoint; without a fault, the next one does.
      expect(endpoint.received).toHaveLength(0);
      await f.invoke(f.guild.owner, command);
      await owner.dispatch('INTERACTION_SUCCESS');
      expect(endpoint.received).toHaveLength(1);
    } finally {
      await setUrl(null);
      await endpoint.close();
    }
  });

  it('sees a webhook-events URL answer an error, and records the attempt', async () => {
    const receiver = await startWebhookReceiver();
    const { app } = f.server;
    const applicationId = f.guild.bot.applicationId;
    try {
      const subscribed = await f.call('PATCH', '/applications/@me', f.guild.bot.token, {
        event_webhooks_url: receiver.url,
        event_webhooks_types: ['APPLICATION_DEAUTHORIZED'],
      });
      expect(subscribed.statusCode).toBe(200);
      receiver.received.splice(0);
      f.control.faults.add({
        kind: 'delivery',
        target: 'webhookEvents',
        failure: 'status',
        status: 503,
        times: 1,
      });
      await app.storage.transaction(async (tx) => {
        const user = await tx.users.findById(f.person.userId);
        if (user === null) throw new Error('no user');
        await app.services.webhookEvents.enqueue(tx, {
          applicationId,
          type: 'APPLICATION_DEAUTHORIZED',
          data: await webhookEventData.APPLICATION_DEAUTHORIZED(tx, { user }),
        });
      });
      await app.services.webhookEvents.deliverDue();
      expect(receiver.received).toHaveLength(0);
      const [event] = await app.storage.outbox.listByApplication(applicationId, { limit: 10 });
      const attempts = await app.storage.outbox.listAttempts([event?.id ?? '']);
      expect(attempts).toMatchObject([{ httpStatus: 503 }]);
    } finally {
      await f.call('PATCH', '/applications/@me', f.guild.bot.token, { event_webhooks_url: null });
      await receiver.close();
    }
  });
});
