/**
 * Child process of bench/http.js and bench/interactions.js: the real Guildhall app seeded with a
 * developer, an application, its bot, a guild with one text channel the bot may write in, and a
 * person who is a member of it. Storage is SQLite in the data
 * folder given as the first argument or, when a second argument gives a PostgreSQL URL, a new
 * schema in that database, dropped again on exit. Its settings are the defaults `npm start` runs
 * with, changed only by the GUILDHALL_* variables in the JSON object of $GUILDHALL_BENCH_SETTINGS
 * (the parent's choice: raised rate limits, or the tuned configuration). Logs go where
 * `npm start` sends them, to standard output (the parent points it at a file). Talks to the
 * parent through childIpc.js.
 */
// First: the app loads as the executable loads it (guildhallModules.js).
import { createApp, loadConfig } from './guildhallModules.js';
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import pg from 'pg';
import { botGuild, seedDeveloper } from './benchApp.js';
import { serveParent } from './childIpc.js';

const [dataDir, postgresUrl] = process.argv.slice(2);
if (dataDir === undefined || process.send === undefined) {
  console.error('guildhallServer.js is started by bench/http.js (a data folder and IPC)');
  process.exit(2);
}

const config = loadConfig({
  GUILDHALL_HOST: '127.0.0.1',
  GUILDHALL_PORT: '0',
  GUILDHALL_DATA_DIR: dataDir,
  GUILDHALL_DEMO: 'off',
  ...JSON.parse(process.env.GUILDHALL_BENCH_SETTINGS ?? '{}'),
});

const schema = postgresUrl === undefined ? null : `bench_${randomBytes(6).toString('hex')}`;
const dropSchema = async () => {
  if (schema === null) return;
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
};
/** PostgreSQL storage in the run's schema; its driver loads only for a PostgreSQL run. */
async function postgresStorage() {
  // A benchmark picks its driver, as app.ts does.
  const { createPostgresStorage } =
    await import('../../packages/server/dist/storage/postgres/index.js');
  return createPostgresStorage({ connectionString: postgresUrl, schema, maxConnections: 10 });
}
const storage = schema === null ? undefined : await postgresStorage();
const app = await createApp(config, { overrides: storage === undefined ? {} : { storage } });

const { developer, botToken, application, bot } = await seedDeveloper(app);
// Approved for the Social SDK, as a shipping game is: its players' DMs and lobby writes are not
// held to the pre-approval quota (bench/sdk.js sends hundreds).
await app.storage.applications.update(application.id, { socialApproved: true });
const { guild, channels } = await botGuild(app, {
  ownerId: developer.user_id,
  applicationId: application.id,
});

// A person in the guild too, for benchmarks that need a user (bench/interactions.js invokes).
const person = await app.services.auth.register({
  email: 'person@guildhall.localhost',
  username: 'person',
  password: randomBytes(16).toString('hex'),
});
await app.storage.members.add({
  guildId: guild.id,
  userId: person.user_id,
  nick: null,
  joinedAt: Date.now(),
  deaf: false,
  mute: false,
  flags: 0,
  roleIds: [],
});

await app.listen();
serveParent(
  {
    apiUrl: app.apiUrl(),
    botToken,
    guildId: guild.id,
    channelId: channels[0].id,
    botUserId: bot.id,
    applicationId: application.id,
    personToken: person.token,
    // The developer's session (bench/activityProxy.js configures the app's activity with it).
    developerToken: developer.token,
    storage: schema === null ? 'sqlite' : 'postgres',
  },
  async () => {
    await app.close();
    await dropSchema();
  },
);
