import { createHash, randomBytes } from 'node:crypto';
import { verifyKey } from 'discord-interactions';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { uniqueName, useFileServer } from '../../test/support/fileServer.js';
import { describeDrivers } from '../../test/support/drivers.js';
import { seedDeveloper, type TestServer } from '../../test/support/testServer.js';
import {
  heldTimers,
  startWebhookReceiver,
  type ReceivedRequest,
  type WebhookReceiver,
} from '../../test/support/webhookReceiver.js';

const REDIRECT = 'https://app.example.test/callback';

describeDrivers('OAuth2 webhook events end to end on $driver', (driver) => {
  let server: TestServer;
  let receiver: WebhookReceiver;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;

  const shared = useFileServer({
    storage: driver,
    config: { allowLocalWebhooks: true },
    webhookDelivery: { timers: heldTimers },
  });
  beforeEach(async () => {
    receiver = await startWebhookReceiver();
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('ends'), 'ends app');
    const res = await server.app.http.inject({
      method: 'PATCH',
      url: `/api/v10/applications/${seed.applicationId}`,
      headers: { authorization: seed.userToken },
      payload: {
        redirect_uris: [REDIRECT],
        event_webhooks_url: receiver.url,
        event_webhooks_types: ['APPLICATION_AUTHORIZED', 'APPLICATION_DEAUTHORIZED'],
      },
    });
    expect(res.statusCode).toBe(200);
    receiver.received.splice(0);
  });
  afterEach(async () => {
    await receiver.close();
  });

  const form = (url: string, body: Record<string, string>) =>
    server.app.http.inject({
      method: 'POST',
      url,
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from(`${seed.applicationId}:${seed.clientSecret}`).toString('base64')}`,
      },
      payload: new URLSearchParams(body).toString(),
    });
  const delivered = async (): Promise<{ type: number; event: { type: string; data: unknown } }> => {
    const before = receiver.received.length;
    expect(await server.app.services.webhookEvents.deliverDue()).toBe(1);
    const request: ReceivedRequest | undefined = receiver.received[before];
    if (request === undefined) throw new Error('nothing delivered');
    const app = await server.app.storage.applications.findById(seed.applicationId);
    const ok = await verifyKey(
      request.body,
      String(request.headers['x-signature-ed25519']),
      String(request.headers['x-signature-timestamp']),
      app?.verifyKey ?? '',
    );
    expect(ok).toBe(true);
    return JSON.parse(request.body) as { type: number; event: { type: string; data: unknown } };
  };

  it('authorize delivers APPLICATION_AUTHORIZED; revoke APPLICATION_DEAUTHORIZED', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const consent = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/oauth2/authorize',
      headers: { authorization: seed.userToken },
      payload: {
        authorize: true,
        response_type: 'code',
        client_id: seed.applicationId,
        scope: 'identify email',
        redirect_uri: REDIRECT,
        state: 'st',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      },
    });
    expect(consent.statusCode).toBe(200);
    const code = new URL(consent.json<{ location: string }>().location).searchParams.get('code');
    const tokens = await form('/api/oauth2/token', {
      grant_type: 'authorization_code',
      code: code ?? '',
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    });
    expect(tokens.statusCode).toBe(200);

    const authorized = await delivered();
    expect(authorized).toMatchObject({
      type: 1,
      event: {
        type: 'APPLICATION_AUTHORIZED',
        data: { integration_type: 1, user: { id: seed.userId } },
      },
    });
    expect((authorized.event.data as { scopes: string[] }).scopes.sort()).toEqual([
      'email',
      'identify',
    ]);

    const revoke = await form('/api/v10/oauth2/token/revoke', {
      token: tokens.json<{ access_token: string }>().access_token,
    });
    expect(revoke.statusCode).toBe(200);
    expect(await delivered()).toMatchObject({
      type: 1,
      event: { type: 'APPLICATION_DEAUTHORIZED', data: { user: { id: seed.userId } } },
    });
    // Nothing was sent that the receiver did not verify, and nothing is left to send.
    expect(receiver.received).toHaveLength(2);
    expect(await server.app.services.webhookEvents.deliverDue()).toBe(0);
  });
});
