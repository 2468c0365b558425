/**
 * One fresh process of bench/startup.js: `guildhall` imports @guildhall/server, starts a server
 * in-process (SQLite in memory) once and then `warm` more times, loads the demo world and
 * resets it `resets` times; `bare` imports Fastify and better-sqlite3 and starts a bare server.
 * Prints one JSON line of times in ms.
 *
 *   node bench/support/startupChild.js guildhall|bare WARM RESETS DATA_DIR
 */
import process from 'node:process';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const [mode, warmArg, resetsArg, dataDir] = process.argv.slice(2);
const warm = Number(warmArg);
const resets = Number(resetsArg);
const started = performance.now();

async function bare() {
  const { default: Fastify } = await import('fastify');
  const { default: Database } = await import('better-sqlite3');
  const imported = performance.now() - started;
  const ready = [];
  for (let i = 0; i <= warm; i += 1) {
    const t = performance.now();
    const db = new Database(':memory:');
    db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY)');
    const app = Fastify({ logger: false });
    app.get('/', () => db.prepare('SELECT 1 AS one').get());
    await app.listen({ host: '127.0.0.1', port: 0 });
    ready.push(performance.now() - t);
    await app.close();
    db.close();
  }
  return { imported, first: ready[0], warm: ready.slice(1) };
}

async function guildhall() {
  const server = await import('@guildhall/server');
  const imported = performance.now() - started;
  const template = server.memoryStorageTemplate();
  const config = {
    ...server.loadConfig({}, []),
    ...{ port: 0, voicePort: 0, voiceEndpoint: '127.0.0.1:0', dataDir },
    ...{ logLevel: 'silent', demo: false },
  };
  const start = async () => {
    const t = performance.now();
    const app = await server.createApp(config, {
      overrides: { storage: server.openMemoryStorage({ template }) },
    });
    await app.listen();
    return { app, ms: performance.now() - t };
  };
  const first = await start();
  await first.app.close();
  const ready = [];
  for (let i = 0; i < warm; i += 1) {
    const next = await start();
    ready.push(next.ms);
    await next.app.close();
  }
  const { app } = await start();
  const world = await server.readWorldFile(
    fileURLToPath(import.meta.resolve('../../packages/server/worlds/demo.json')),
  );
  let t = performance.now();
  const loaded = await app.worlds.load(world);
  const load = performance.now() - t;
  const resetTimes = [];
  const bot = loaded.applications['demo-bot'];
  const channel = loaded.guilds['demo'].channels['general'];
  for (let i = 0; i < resets; i += 1) {
    // Something to undo: a message sent by the bot.
    await app.http.inject({
      method: 'POST',
      url: `/api/v10/channels/${channel}/messages`,
      headers: { authorization: `Bot ${bot.botToken}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ content: `message ${i}` }),
    });
    t = performance.now();
    await app.worlds.reset();
    resetTimes.push(performance.now() - t);
  }
  await app.close();
  return { imported, first: first.ms, warm: ready, load, resets: resetTimes };
}

const result = mode === 'bare' ? await bare() : await guildhall();
process.stdout.write(`${JSON.stringify(result)}\n`);
