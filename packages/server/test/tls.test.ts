/**
 * TLS on the API and gateway listener (`--tls dev`): a development certificate made at first
 * start in `<dataDir>/tls/`, HTTPS for the API, WSS for the gateway, `GET /gateway/bot` and the
 * banner naming wss://. discord.js (@discordjs/rest and @discordjs/ws) connects in a child
 * process that trusts the certificate through NODE_EXTRA_CA_CERTS; without it, a client refuses
 * the certificate.
 */
import { spawn } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PermissionFlags as P } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectChild } from './support/children.js';
import { seedDeveloper, startTestServer, type TestServer } from './support/testServer.js';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const CLIENT = fileURLToPath(new URL('./support/tlsClient.ts', import.meta.url));

describe('HTTPS and WSS with a development certificate', () => {
  let server: TestServer;
  let token: string;
  let channelId: string;

  beforeAll(async () => {
    server = await startTestServer({ listen: true, config: { tls: 'dev' } });
    const { app } = server;
    const owner = await seedDeveloper(app, 'tls');
    const { guild, channels } = await app.services.guilds.create({
      ownerId: owner.userId,
      name: 'Encrypted',
      channels: [{ name: 'general', type: 'text' }],
    });
    await app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: owner.applicationId,
      permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES,
    });
    token = owner.botToken;
    channelId = channels[0]?.id ?? '';
  });
  afterAll(async () => {
    await server.close();
  });

  it('makes a certificate for loopback and serves https and wss', () => {
    const tls = server.app.tls();
    expect(tls?.development).toBe(true);
    expect(tls?.certPath).toBe(join(server.app.config.dataDir, 'tls', 'cert.pem'));
    expect(existsSync(join(server.app.config.dataDir, 'tls', 'key.pem'))).toBe(true);
    const cert = new X509Certificate(readFileSync(tls?.certPath ?? ''));
    expect(cert.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(cert.checkHost('localhost')).toBe('localhost');
    expect(server.baseUrl).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect(server.app.gatewayUrl()).toMatch(/^wss:\/\/127\.0\.0\.1:\d+\/gateway$/);
  });

  it('is refused by a client that does not trust the certificate', async () => {
    await expect(fetch(`${server.baseUrl}/api/v10/gateway`)).rejects.toThrow();
  });

  it('serves discord.js over TLS when the certificate is trusted', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', CLIENT, server.baseUrl, token, channelId],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          TSX_TSCONFIG_PATH: 'tsconfig.test.json',
          NODE_EXTRA_CA_CERTS: server.app.tls()?.certPath ?? '',
        },
        stdio: 'pipe',
      },
    );
    const result = await collectChild(child);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}') as Record<
      string,
      unknown
    >;
    expect(report).toMatchObject({
      gateway: server.app.gatewayUrl(),
      guild: 'Encrypted',
      message: 'over TLS',
    });
    expect(String(report['gateway'])).toMatch(/^wss:\/\//);
  }, 60_000);
});
