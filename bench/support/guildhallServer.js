/**
 * Child process of bench/http.js: the real Guildhall app (SQLite in the data folder given as the
 * first argument, rate limits off, logs at warn) seeded with a developer, an application and its
 * bot. Reports `{ type: 'ready', apiUrl, botToken }` over IPC and closes on `{ type: 'stop' }`.
 */
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { createApp } from '../../packages/server/dist/app.js';
import { loadConfig } from '../../packages/server/dist/config.js';

const dataDir = process.argv[2];
if (dataDir === undefined || process.send === undefined) {
  console.error(
    'guildhallServer.js is started by bench/http.js (a data folder and an IPC channel)',
  );
  process.exit(2);
}

// The parent going away (crash, kill) must not leave a server behind.
process.on('disconnect', () => process.exit(1));

const config = loadConfig({
  GUILDHALL_HOST: '127.0.0.1',
  GUILDHALL_PORT: '0',
  GUILDHALL_DATA_DIR: dataDir,
  GUILDHALL_LOG_LEVEL: 'warn',
  GUILDHALL_RATE_LIMITS: 'off',
  GUILDHALL_DEMO: 'off',
});
const app = await createApp({ config });

const developer = await app.services.auth.register({
  email: 'bench@guildhall.localhost',
  username: 'bench',
  password: randomBytes(16).toString('hex'),
  global_name: 'Bench Developer',
});
const { botToken } = await app.services.applications.create(developer.user_id, {
  name: 'Bench Bot',
});

await app.listen();

process.on('message', (message) => {
  if (message?.type !== 'stop') return;
  // A clean exit, so that --cpu-prof (BENCH_PROFILE=1) writes its profile.
  app.close().then(
    () => process.exit(0),
    () => process.exit(1),
  );
});

process.send({ type: 'ready', apiUrl: app.apiUrl(), botToken });
