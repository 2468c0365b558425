/**
 * `guildhall backup` of a running SQLite deployment (`guildhall start`, the built CLI, in a child
 * process) while two writers post messages, some with files, through its API; then `guildhall
 * restore` into a new folder and a server started on it: every message acknowledged before the
 * backup began is there, with its file. And the refusals: a folder not empty, a file that is no
 * backup, PostgreSQL, an existing target.
 *
 * @module
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PermissionFlags as P } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../src/app.js';
import { runCli } from '../src/cli/index.js';
import { loadConfig } from '../src/config.js';
import { capture } from './support/cliFixture.js';
import { spawnNode, type ClusterNode } from './support/cluster.js';
import { countAppStart, seedDeveloper } from './support/testServer.js';

/** Messages acknowledged before the backup starts. */
const BEFORE_BACKUP = 30;
/** Every this many messages one carries a file. */
const FILE_EVERY = 4;

interface Posted {
  id: string;
  /** The file's content, for a message with one. */
  file: string | null;
}

async function seed(dataDir: string) {
  countAppStart();
  const app = await createApp({ ...loadConfig({}), dataDir, logLevel: 'silent', demo: false });
  try {
    const dev = await seedDeveloper(app, 'backup');
    const { guild, channels } = await app.services.guilds.create({
      ownerId: dev.userId,
      name: 'Backed up',
      channels: [{ name: 'general', type: 'text' }],
    });
    const bot = await app.services.applications.create(dev.userId, { name: 'writer' });
    await app.services.guilds.addBot({
      guildId: guild.id,
      applicationId: bot.application.id,
      permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.ATTACH_FILES | P.READ_MESSAGE_HISTORY,
    });
    return { token: `Bot ${bot.botToken}`, channelId: channels[0]?.id ?? '' };
  } finally {
    await app.close();
  }
}

const serverEnv = (dataDir: string) => ({
  GUILDHALL_DATA_DIR: dataDir,
  GUILDHALL_HOST: '127.0.0.1',
  GUILDHALL_PORT: '0',
  GUILDHALL_DEMO: 'off',
  GUILDHALL_LOG_LEVEL: 'warn',
  GUILDHALL_GLOBAL_RATE_LIMIT: '100000',
  GUILDHALL_ROUTE_RATE_LIMIT: '100000/1',
});

async function cli(argv: string[], env: Record<string, string> = {}) {
  const c = capture();
  const code = await runCli(argv, env, c.io);
  return { code, out: c.out(), err: c.err() };
}

async function stop(node: ClusterNode) {
  node.kill('SIGTERM');
  await node.exited;
}

describe('guildhall backup and restore of a SQLite deployment', () => {
  let root: string;
  let world: { token: string; channelId: string };
  const running: ClusterNode[] = [];

  beforeAll(async () => {
    root = await mkdtemp(join(tmpdir(), 'guildhall-backup-'));
    world = await seed(join(root, 'data'));
  });
  afterAll(async () => {
    await Promise.all(running.map(stop));
    await rm(root, { recursive: true, force: true });
  });

  /** POSTs message n (with a file every FILE_EVERY) until it is acknowledged. */
  async function post(apiUrl: string, n: number): Promise<Posted> {
    const file = n % FILE_EVERY === 0 ? `file of message ${String(n)} `.repeat(50) : null;
    for (;;) {
      const form = new FormData();
      form.append('payload_json', JSON.stringify({ content: `m${String(n)}` }));
      if (file !== null) form.append('files[0]', new Blob([file]), `m${String(n)}.txt`);
      const answer = await fetch(`${apiUrl}/channels/${world.channelId}/messages`, {
        method: 'POST',
        headers: { authorization: world.token },
        body: form,
      });
      if (answer.status === 429) {
        const { retry_after: wait } = (await answer.json()) as { retry_after: number };
        await new Promise((resolve) => setTimeout(resolve, wait * 1000));
        continue;
      }
      expect(answer.status, await answer.clone().text()).toBe(200);
      return { id: ((await answer.json()) as { id: string }).id, file };
    }
  }

  it('copies a deployment under write load; the restore has all acknowledged before', async () => {
    const server = await spawnNode(serverEnv(join(root, 'data')));
    running.push(server);
    const acked: Posted[] = [];
    const flow = { on: true };
    let next = 0;
    const writers = Promise.all(
      [0, 1].map(async () => {
        while (flow.on) acked.push(await post(server.apiUrl, next++));
      }),
    );
    await expect
      .poll(() => acked.length, { timeout: 30_000 })
      .toBeGreaterThanOrEqual(BEFORE_BACKUP);

    const before = [...acked];
    const archive = join(root, 'deployment.tar.gz');
    const backup = await cli(['backup', '--to', archive, '--data-dir', join(root, 'data')]);
    expect(backup, backup.err).toMatchObject({ code: 0 });
    expect(backup.out).toMatch(
      /^Backed up guildhall\.db \(\d+ pages\) and \d+ files \(\d+ bytes\) to /,
    );
    // The writers go on after it, undisturbed.
    const atEnd = acked.length;
    await expect.poll(() => acked.length, { timeout: 30_000 }).toBeGreaterThan(atEnd + 5);
    flow.on = false;
    await writers;
    running.splice(running.indexOf(server), 1);
    await stop(server);

    const restoredDir = join(root, 'restored');
    const restore = await cli(['restore', '--from', archive, '--data-dir', restoredDir]);
    expect(restore, restore.err).toMatchObject({ code: 0 });
    expect(restore.out).toMatch(/^Restored guildhall\.db, its secret key and \d+ files into /);

    const restored = await spawnNode(serverEnv(restoredDir));
    running.push(restored);
    const withFiles = before.filter((m) => m.file !== null);
    expect(withFiles.length).toBeGreaterThan(0);
    for (const message of before) {
      const res = await fetch(
        `${restored.apiUrl}/channels/${world.channelId}/messages/${message.id}`,
        { headers: { authorization: world.token } },
      );
      expect(res.status, message.id).toBe(200);
      const body = (await res.json()) as { attachments: { url: string }[] };
      if (message.file === null) continue;
      const served = await fetch(body.attachments[0]?.url ?? '');
      expect(served.status).toBe(200);
      expect(await served.text()).toBe(message.file);
    }

    // Refusals, each one line saying what to do.
    const again = await cli(['restore', '--from', archive, '--data-dir', restoredDir]);
    expect(again.code).toBe(1);
    expect(again.err).toMatch(
      /^guildhall restore: the data folder .* is not empty: restore into a new or empty folder/,
    );
    const junk = join(root, 'junk.tar.gz');
    await writeFile(junk, 'not an archive');
    const notBackup = await cli(['restore', '--from', junk, '--data-dir', join(root, 'r2')]);
    expect(notBackup.code).toBe(1);
    expect(notBackup.err).toMatch(/is not a guildhall backup/);
    const postgres = await cli(['backup', '--to', join(root, 'pg.tar.gz')], {
      DATABASE_URL: 'postgres://u@127.0.0.1:5432/x',
    });
    expect(postgres.code).toBe(1);
    expect(postgres.err).toMatch(/pg_dump or pg_basebackup/);
    const exists = await cli(['backup', '--to', archive, '--data-dir', restoredDir]);
    expect(exists.code).toBe(1);
    expect(exists.err).toMatch(/exists: name a new file/);
  }, 120_000);

  it('prints its usage with --help', async () => {
    const backup = await cli(['backup', '--help']);
    expect(backup.code).toBe(0);
    expect(backup.out).toMatch(/^Usage: guildhall backup --to FILE/);
    const restore = await cli(['restore', '--help']);
    expect(restore.out).toMatch(/^Usage: guildhall restore --from FILE/);
    const missing = await cli(['backup']);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/--to/);
  });
});
