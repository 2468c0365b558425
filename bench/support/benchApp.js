/**
 * The real Guildhall app as the benches seed it: its configuration (SQLite in a data folder,
 * logs at warn, rate limits off, no demo), an app started in this process in a temporary folder,
 * a developer with a bot, and a guild with one text channel the bot may read and write in.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import process from 'node:process';
import { PermissionFlags as P } from '@guildhall/protocol';
import { createApp, loadConfig } from './guildhallModules.js';

/** The configuration of a bench's app on 127.0.0.1 (port 0) with its data in `dataDir`. */
export function benchConfig(dataDir) {
  return loadConfig({
    GUILDHALL_HOST: '127.0.0.1',
    GUILDHALL_PORT: '0',
    GUILDHALL_DATA_DIR: dataDir,
    GUILDHALL_LOG_LEVEL: 'warn',
    GUILDHALL_RATE_LIMITS: 'off',
    GUILDHALL_DEMO: 'off',
    // The platform as deployed: without the test controls' request and dispatch log.
    GUILDHALL_CONTROL: 'off',
  });
}

/**
 * The app in this process, its data in a new folder named `guildhall-<name>-…` under $BENCH_TMP
 * (or the system's temporary folder); `close` stops it and removes the folder.
 */
export async function startInProcessApp(name) {
  const dataDir = await mkdtemp(join(process.env.BENCH_TMP ?? tmpdir(), `guildhall-${name}-`));
  const app = await createApp(benchConfig(dataDir));
  const close = async () => {
    await app.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  return { app, close };
}

/** Registers the bench developer and makes their application: its bot token and application. */
export async function seedDeveloper(app) {
  const developer = await app.services.auth.register({
    email: 'bench@guildhall.localhost',
    username: 'bench',
    password: randomBytes(16).toString('hex'),
    global_name: 'Bench Developer',
  });
  const made = await app.services.applications.create(developer.user_id, { name: 'Bench Bot' });
  return { developer, ...made };
}

/**
 * A guild `ownerId` owns with one text channel, `general`, and the application's bot in it,
 * allowed to view the channel, send messages and read their history.
 */
export async function botGuild(app, { ownerId, applicationId, name = 'Bench guild' }) {
  const created = await app.services.guilds.create({
    ownerId,
    name,
    channels: [{ name: 'general', type: 'text' }],
  });
  await app.services.guilds.addBot({
    guildId: created.guild.id,
    applicationId,
    permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.READ_MESSAGE_HISTORY,
  });
  return created;
}
