import { GatewayIntentBits as I } from '@guildhall/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { demoBanner, ensureDemo } from '../src/demo.js';
import { connectGateway, identifyGateway, type GatewayClient } from './support/gatewayClient.js';
import { startTestServer } from './support/testServer.js';

const PRIVILEGED = I.GUILD_MEMBERS | I.MESSAGE_CONTENT | I.GUILD_PRESENCES;

describe('the demo application', () => {
  const clients: GatewayClient[] = [];
  afterEach(() => {
    for (const c of clients.splice(0)) c.raw.terminate();
  });

  it('starts with the limited privileged intents on; PATCH flags 0 turns them off', async () => {
    await using server = await startTestServer({ listen: true });
    const { demo, privilegedIntents } = await ensureDemo(server.app);
    expect(privilegedIntents).toEqual(['GUILD_MEMBERS', 'GUILD_PRESENCES', 'MESSAGE_CONTENT']);

    const app = await server.app.http.inject({
      method: 'GET',
      url: '/api/v10/applications/@me',
      headers: { authorization: `Bot ${demo.bot_token}` },
    });
    expect(app.json<{ flags: number }>().flags).toBe((1 << 13) | (1 << 15) | (1 << 19));

    // The demo bot may IDENTIFY with all three privileged intents.
    const { client, ready } = await identifyGateway(server.app.gatewayUrl(), {
      token: demo.bot_token,
      intents: I.GUILDS | PRIVILEGED,
    });
    clients.push(client);
    expect(ready.session_id).toEqual(expect.any(String));
    // The demo bot's user has the application's id, the one its token's first segment carries.
    expect(ready).toMatchObject({
      user: { id: demo.application_id },
      application: { id: demo.application_id },
    });
    const [idPart = ''] = demo.bot_token.split('.');
    expect(Buffer.from(idPart, 'base64url').toString()).toBe(demo.application_id);

    const banner = demoBanner(demo, 'demo.json', { privilegedIntents });
    expect(banner).toContain(
      'Privileged intents on, as in a developer sandbox: GUILD_MEMBERS, GUILD_PRESENCES, MESSAGE_CONTENT',
    );
    expect(banner).toContain(
      `curl -X PATCH ${demo.api_url}/applications/@me -H 'Authorization: Bot ${demo.bot_token}' -H 'Content-Type: application/json' -d '{"flags":0}'`,
    );

    // The banner's command, as a request: afterwards the same IDENTIFY closes with 4014.
    const off = await server.app.http.inject({
      method: 'PATCH',
      url: '/api/v10/applications/@me',
      headers: { authorization: `Bot ${demo.bot_token}`, 'content-type': 'application/json' },
      payload: { flags: 0 },
    });
    expect(off.statusCode).toBe(200);
    const denied = await connectGateway(server.app.gatewayUrl());
    clients.push(denied);
    await denied.next((f) => f.op === 10);
    denied.send(2, {
      token: demo.bot_token,
      intents: I.GUILDS | PRIVILEGED,
      properties: { os: 'linux', browser: 'test', device: 'test' },
    });
    expect((await denied.closed).code).toBe(4014);

    // A later start reuses the demo and keeps them off, and the banner says so.
    const again = await ensureDemo(server.app);
    expect(again.created).toBe(false);
    expect(again.privilegedIntents).toEqual([]);
    expect(demoBanner(again.demo, 'demo.json')).toContain(
      `Privileged intents: off. Turn on GUILD_MEMBERS, GUILD_PRESENCES and MESSAGE_CONTENT with:`,
    );
  });

  it('names the web client and a one-time portal link in the banner', () => {
    const demo = {
      api_url: 'http://127.0.0.1:8080/api/v10',
      gateway_url: 'ws://127.0.0.1:8080/gateway',
      application_id: '1',
      client_secret: 's',
      bot_token: 't',
      guild_id: '2',
      channel_id: '3',
      user_id: '4',
      user_token: 'u',
    };
    const banner = demoBanner(demo, 'demo.json', {
      web: { baseUrl: 'http://127.0.0.1:8080', loginCode: 'c0de' },
    });
    // One link signs in everywhere: the client's login page takes it (and the portal shares it).
    expect(banner).toContain('\n  Sign in:    http://127.0.0.1:8080/login#code=c0de\n');
    expect(banner.match(/#code=/g)).toHaveLength(1);
    expect(banner).toContain('\n  Portal:     http://127.0.0.1:8080/developers/applications\n');
    expect(demoBanner(demo, 'demo.json')).not.toContain('Sign in');

    const voice = demoBanner(demo, 'demo.json', {
      voice: { endpoint: '127.0.0.1:8081', developmentCertificate: '/data/voice-tls/cert.pem' },
    });
    expect(voice).toContain('\n  Voice:      127.0.0.1:8081 (wss and ws;');
    expect(voice).toContain('Node clients: NODE_EXTRA_CA_CERTS=/data/voice-tls/cert.pem\n');
    const own = demoBanner(demo, 'demo.json', {
      voice: { endpoint: 'voice.example.com:443', developmentCertificate: null },
    });
    expect(own).toContain('Voice:      voice.example.com:443');
    expect(own).not.toContain('NODE_EXTRA_CA_CERTS');
  });
});
