/**
 * Child process of bench/rateLimits.js: the real Guildhall app (SQLite in the data folder given as
 * the first argument, logs at warn) with a bot, with rate limits off, on in memory, or on in Redis
 * (the second argument: `off`, `memory` or a redis:// URL; the third, the Redis key prefix).
 * The limits are set far above the load, so every request is counted and none refused.
 */
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import process from 'node:process';
import { createApp, loadConfig } from './guildhallModules.js';
import { serveParent } from './childIpc.js';

const [dataDir, limits, redisPrefix] = process.argv.slice(2);
if (dataDir === undefined || limits === undefined || process.send === undefined) {
  console.error('rateLimitServer.js is started by bench/rateLimits.js');
  process.exit(2);
}

const config = loadConfig({
  GUILDHALL_HOST: '127.0.0.1',
  GUILDHALL_PORT: '0',
  GUILDHALL_DATA_DIR: dataDir,
  GUILDHALL_LOG_LEVEL: 'warn',
  GUILDHALL_DEMO: 'off',
  GUILDHALL_RATE_LIMITS: limits === 'off' ? 'off' : 'on',
  GUILDHALL_GLOBAL_RATE_LIMIT: '1000000',
  GUILDHALL_ROUTE_RATE_LIMIT: '1000000/1',
  ...(limits.startsWith('redis') ? { REDIS_URL: limits, GUILDHALL_REDIS_PREFIX: redisPrefix } : {}),
});
const app = await createApp(config);
const developer = await app.services.auth.register({
  email: 'bench@guildhall.localhost',
  username: 'bench',
  password: randomBytes(16).toString('hex'),
});
const { botToken } = await app.services.applications.create(developer.user_id, {
  name: 'Bench Bot',
});
await app.listen();
serveParent({ apiUrl: app.apiUrl(), botToken }, () => app.close());
