/**
 * Child process of bench/http.js: the real Guildhall app (SQLite in the data folder given as the
 * first argument, rate limits off, logs at warn) seeded with a developer, an application and its
 * bot. Talks to the parent through childIpc.js.
 */
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { createApp } from '../../packages/server/dist/app.js';
import { loadConfig } from '../../packages/server/dist/config.js';
import { serveParent } from './childIpc.js';

const dataDir = process.argv[2];
if (dataDir === undefined || process.send === undefined) {
  console.error('guildhallServer.js is started by bench/http.js (a data folder and IPC)');
  process.exit(2);
}

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
serveParent({ apiUrl: app.apiUrl(), botToken }, () => app.close());
