import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  startInteractionEndpoint,
  type EndpointReply,
} from '../../../test/support/interactionEndpoint.js';
import {
  INTERACTION_FIXTURE_FILE_LIMIT,
  useInteractionFixture,
} from '../../../test/support/interactionFixture.js';
import { multipartBody } from '../../../test/support/invites.js';

/** An endpoint that answers every request with a PONG without checking any signature. */
async function startCarelessEndpoint() {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"type":1}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${String(port)}/careless`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

const TOKEN = expect.stringMatching(/^[A-Za-z0-9_-]{64}$/) as unknown;

describeDrivers('interactions over the HTTP endpoint: $driver', (driver) => {
  const f = useInteractionFixture(driver);
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  const verifyKey = async () =>
    (await f.call('GET', '/applications/@me', f.guild.bot.token)).json<{ verify_key: string }>()
      .verify_key;
  const endpoint = async (answer: (interaction: Record<string, unknown>) => EndpointReply) => {
    const started = await startInteractionEndpoint(await verifyKey(), answer);
    closers.push(() => started.close());
    return started;
  };
  const setUrl = (url: string | null) =>
    f.call('PATCH', '/applications/@me', f.guild.bot.token, { interactions_endpoint_url: url });

  it('keeps an endpoint URL only when it refuses forged signatures and answers PINGs', async () => {
    const good = await endpoint(() => ({ status: 500 }));
    const res = await setUrl(good.url);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ interactions_endpoint_url: good.url });
    // The PINGs were answered by discord-interactions itself; no interaction reached the app.
    expect(good.received).toEqual([]);

    const careless = await startCarelessEndpoint();
    closers.push(() => careless.close());
    const refused = await setUrl(careless.url);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        interactions_endpoint_url: {
          _errors: [
            {
              code: 'APPLICATION_INTERACTIONS_ENDPOINT_URL_INVALID',
              message: 'The specified interactions endpoint url could not be verified.',
            },
          ],
        },
      },
    });
    const unreachable = await setUrl('http://127.0.0.1:9/nothing-here');
    expect(unreachable.statusCode).toBe(400);
    const app = await f.call('GET', '/applications/@me', f.guild.bot.token);
    expect(app.json()).toMatchObject({ interactions_endpoint_url: good.url });
    expect((await setUrl(null)).json()).toMatchObject({ interactions_endpoint_url: null });
  });

  it('posts the signed interaction; its answer is the initial response, never also on the gateway', async () => {
    const command = await f.command({ name: 'ping', description: 'Pong' });
    const app = await endpoint(() => ({ json: { type: 4, data: { content: 'pong' } } }));
    expect((await setUrl(app.url)).statusCode).toBe(200);
    const bot = await f.gateway(f.guild.bot.token, I.GUILDS);
    const person = await f.gateway(f.guild.owner.token);
    const res = await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      application_id: f.guild.bot.applicationId,
      guild_id: f.guild.guildId,
      channel_id: await f.channelId(),
      session_id: 's',
      nonce: 'http-1',
      data: { id: command['id'], name: 'ping', type: 1 },
    });
    expect(res.statusCode).toBe(204);
    const success = await person.dispatch('INTERACTION_SUCCESS');
    expect(app.received).toHaveLength(1);
    const [delivered] = app.received;
    expect(delivered).toMatchObject({
      id: (success.d as { id: string }).id,
      type: 2,
      token: TOKEN,
      data: { name: 'ping' },
      authorizing_integration_owners: { '0': f.guild.guildId },
    });
    const stored = await f.server.app.storage.interactions.findById(String(delivered?.['id']));
    expect(stored?.responseType).toBe(4);
    expect(bot.frames.some((frame) => frame.t === 'INTERACTION_CREATE')).toBe(false);
  });

  it('takes a multipart answer (a response with files) as the initial response', async () => {
    const command = await f.command({ name: 'ping', description: 'Pong' });
    const app = await endpoint(() => ({
      multipart: multipartBody(
        {
          payload_json: JSON.stringify({
            type: 4,
            data: { content: 'a file', attachments: [{ id: 0 }] },
          }),
        },
        { 'files[0]': { data: 'file body', type: 'text/plain', filename: 'a.txt' } },
      ),
    }));
    expect((await setUrl(app.url)).statusCode).toBe(200);
    const person = await f.gateway(f.guild.owner.token);
    await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      application_id: f.guild.bot.applicationId,
      channel_id: await f.channelId(),
      session_id: 's',
      data: { id: command['id'], name: 'ping', type: 1 },
    });
    const { id } = (await person.dispatch('INTERACTION_SUCCESS')).d as { id: string };
    expect((await f.server.app.storage.interactions.findById(id))?.responseType).toBe(4);
  });

  it('fails the interaction when an answer carries a file over the attachment limit', async () => {
    const command = await f.command({ name: 'ping', description: 'Pong' });
    const app = await endpoint(() => ({
      multipart: multipartBody(
        {
          payload_json: JSON.stringify({
            type: 4,
            data: { content: 'too big', attachments: [{ id: 0 }] },
          }),
        },
        {
          'files[0]': {
            data: 'x'.repeat(INTERACTION_FIXTURE_FILE_LIMIT + 1),
            type: 'text/plain',
            filename: 'big.txt',
          },
        },
      ),
    }));
    expect((await setUrl(app.url)).statusCode).toBe(200);
    const person = await f.gateway(f.guild.owner.token);
    await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      application_id: f.guild.bot.applicationId,
      channel_id: await f.channelId(),
      session_id: 's',
      data: { id: command['id'], name: 'ping', type: 1 },
    });
    const { id } = (await person.dispatch('INTERACTION_FAILURE')).d as { id: string };
    expect((await f.server.app.storage.interactions.findById(id))?.responseType).toBeNull();
  });

  it('takes a 202 answer and then the response through the callback route', async () => {
    const command = await f.command({ name: 'ping', description: 'Pong' });
    const app = await endpoint(() => ({ status: 202 }));
    expect((await setUrl(app.url)).statusCode).toBe(200);
    const person = await f.gateway(f.guild.owner.token);
    await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      application_id: f.guild.bot.applicationId,
      channel_id: await f.channelId(),
      session_id: 's',
      data: { id: command['id'], name: 'ping', type: 1 },
    });
    while (app.received.length < 1) await new Promise((resolve) => setImmediate(resolve));
    const [delivered] = app.received as { id: string; token: string }[];
    const stored = await f.server.app.storage.interactions.findById(String(delivered?.id));
    expect(stored?.responseType).toBeNull();
    const answered = await f.server.app.http.inject({
      method: 'POST',
      url: `/api/v10/interactions/${String(delivered?.id)}/${String(delivered?.token)}/callback`,
      payload: { type: 4, data: { content: 'pong, later' } },
    });
    expect(answered.statusCode).toBe(204);
    await person.dispatch('INTERACTION_SUCCESS');
    const answeredRow = await f.server.app.storage.interactions.findById(String(delivered?.id));
    expect(answeredRow?.responseType).toBe(4);
    const reply = await f.server.app.storage.messages.findById(
      await f.channelId(),
      String(answeredRow?.originalMessageId),
    );
    expect(reply).toMatchObject({ content: 'pong, later', interactionMetadata: { type: 2 } });
  });

  it('fails the interaction when the endpoint answers with an error or not in time', async () => {
    const command = await f.command({ name: 'ping', description: 'Pong' });
    let reply: EndpointReply = { status: 500 };
    const app = await endpoint(() => reply);
    expect((await setUrl(app.url)).statusCode).toBe(200);
    const person = await f.gateway(f.guild.owner.token);
    const invoke = async (nonce: string) =>
      f.call('POST', '/interactions', f.guild.owner.token, {
        type: 2,
        application_id: f.guild.bot.applicationId,
        channel_id: await f.channelId(),
        session_id: 's',
        nonce,
        data: { id: command['id'], name: 'ping', type: 1 },
      });
    expect((await invoke('broken')).statusCode).toBe(204);
    await person.next((frame) => frame.t === 'INTERACTION_FAILURE');
    expect(person.frames.find((frame) => frame.t === 'INTERACTION_FAILURE')?.d).toMatchObject({
      nonce: 'broken',
    });

    reply = 'hang';
    expect((await invoke('late')).statusCode).toBe(204);
    while (app.received.length < 2) await new Promise((resolve) => setImmediate(resolve));
    f.clock.advance(3_000);
    f.timers.fire();
    await person.next(
      (frame) =>
        frame.t === 'INTERACTION_FAILURE' && (frame.d as { nonce?: string }).nonce === 'late',
    );
  });
});
