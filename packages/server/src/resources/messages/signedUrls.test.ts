import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlags as P } from '@guildhall/protocol';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture } from '../../../test/support/guildMembers.js';
import { firstChannelId, sendMultipart } from '../../../test/support/messageFixtures.js';
import { TEST_DATABASE_URL, dropSchema, uniqueSchema } from '../../../test/support/postgres.js';
import { startTestServer, type TestServer } from '../../../test/support/testServer.js';
import { manualClock } from '../../domain/clock.js';
import { SEALED_AS, createSecretBox } from '../../domain/secretBox.js';
import { createPostgresStorage } from '../../storage/postgres/index.js';
import { createSqliteStorage } from '../../storage/sqlite/index.js';
import { ATTACHMENT_SECRET, createAttachmentSigner } from './signedUrls.js';

const NOW = Date.UTC(2026, 10, 24, 13);
const DAY_MS = 86_400_000;
/** The key testServer.ts gives apps that share a database. */
const SHARED_KEY = Buffer.alloc(32, 7);
/** What the sealed value belongs to (its authenticated data). */
const sealedFor = () => SEALED_AS.serverSecret(ATTACHMENT_SECRET);

/** The attachment-signing secret (CDN links' `hm`) is sealed at rest like the other secrets. */
describeDrivers('the attachment-signing secret at rest on $driver', (driver) => {
  let dataDir: string;
  let database: string;
  const servers: TestServer[] = [];
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'guildhall-urlsecret-'));
    database = driver === 'postgres' ? uniqueSchema('urlsecret') : join(dataDir, 'guildhall.db');
  });
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
    if (driver === 'postgres') await dropSchema(database);
    await rm(dataDir, { recursive: true, force: true });
  });

  const openStorage = () =>
    driver === 'postgres'
      ? createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema: database })
      : Promise.resolve(createSqliteStorage({ filename: database }));
  const start = async () => {
    const server = await startTestServer({
      storage: driver,
      database,
      dataDir,
      clock: manualClock(NOW),
    });
    servers.push(server);
    return server;
  };
  const stored = async (server: TestServer) =>
    server.app.storage.serverSecrets.getOrCreate(ATTACHMENT_SECRET, 'never stored', 0);

  /** An attachment's CDN path, and what the server answers to it signed by `sign`. */
  const attachment = async (server: TestServer) => {
    const g = await guildFixture(server, {
      botPermissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.ATTACH_FILES,
    });
    const channelId = await firstChannelId(server.app, g.guildId);
    const res = await sendMultipart(server.app, {
      method: 'POST',
      path: `/channels/${channelId}/messages`,
      auth: g.owner.token,
      payload: { content: 'file' },
      files: [{ field: 'files[0]', filename: 'a.txt', contentType: 'text/plain', data: 'alpha' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = new URL(res.json<{ attachments: { url: string }[] }>().attachments[0]?.url ?? '');
    return { url: `${url.pathname}${url.search}`, path: url.pathname };
  };
  const fetch = async (server: TestServer, url: string) =>
    (await server.app.http.inject({ method: 'GET', url })).statusCode;

  it('is made sealed: the database alone cannot sign a link', async () => {
    const server = await start();
    const value = await stored(server);
    expect(value).toMatch(/^v1:/);
    const secret = createSecretBox(SHARED_KEY).open(value, sealedFor());
    expect(Buffer.from(secret, 'base64')).toHaveLength(32);
    expect(value).not.toContain(secret);
    const { url, path } = await attachment(server);
    expect(await fetch(server, url)).toBe(200);
    // The server signs with what the sealed value holds, and with nothing else.
    const clock = manualClock(NOW);
    const signer = (raw: Buffer) =>
      createAttachmentSigner({ secret: raw, clock, lifetimeMs: DAY_MS });
    expect(await fetch(server, signer(Buffer.from(secret, 'base64')).sign(path))).toBe(200);
    expect(await fetch(server, signer(Buffer.from(value)).sign(path))).toBe(404);
  });

  it('a secret stored before sealing is sealed at the next start; its links still work', async () => {
    const legacy = randomBytes(32).toString('base64');
    const before = await openStorage();
    await before.serverSecrets.getOrCreate(ATTACHMENT_SECRET, legacy, NOW);
    await before.close();

    const server = await start();
    const value = await stored(server);
    expect(value).toMatch(/^v1:/);
    expect(value).not.toContain(legacy);
    expect(createSecretBox(SHARED_KEY).open(value, sealedFor())).toBe(legacy);
    // A link signed with it before the upgrade still opens.
    const { url, path } = await attachment(server);
    const signer = createAttachmentSigner({
      secret: Buffer.from(legacy, 'base64'),
      clock: manualClock(NOW),
      lifetimeMs: DAY_MS,
    });
    expect(await fetch(server, signer.sign(path))).toBe(200);
    await server.close();
    servers.splice(servers.indexOf(server), 1);

    // Sealed once: the next start changes nothing, and the link handed out still works.
    const again = await start();
    expect(await stored(again)).toBe(value);
    expect(await fetch(again, url)).toBe(200);
  });
});
