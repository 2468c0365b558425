/**
 * The native Social SDK (packages/sdk-cpp) measured beside the TypeScript SDK (packages/sdk), in
 * the same run against the same server: the library's build time and size, the time from
 * connect to Ready, and a DM's round trip from one player's client to the other's callback. The
 * server is a child process with `npm start`'s settings (support/guildhallServer.js); the native
 * side is bench/sdk-cpp/sdk_bench.cpp, built against the freshly installed library. See
 * docs/benchmarks.md.
 */
import { execFileSync, spawn } from 'node:child_process';
import console from 'node:console';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startServer } from './support/childServer.js';
import { integerReader, readOptions } from './support/options.js';
import { percentile } from './support/stats.js';

const USAGE = `Usage: node bench/sdkCpp.js [options]   (npm run bench:sdk-cpp builds the TS SDK first)

Rows, each for the native SDK and the TypeScript SDK:
  build           a clean Release build of the library (shared and static, cmake --build -j 2);
                  the TypeScript SDK's vite build beside it
  library size    libplatformpp.so (stripped, and as built) beside the TypeScript SDK's browser
                  bundle; libplatformpp.a beside its Node build (the .js files of dist/)
  ready           connect until Ready, one player after another (--players)
  DM round trip   Ada's send until Bob's message-created callback, one in flight (--rounds)

Options:
  --players <n>   players for the ready row (default 50)
  --rounds <n>    DM round trips (default 200)
  --json          print the results as JSON
  --help          print this help

Needs cmake, g++ and the native SDK's Debian packages (docs/sdk-cpp.md).`;

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const RAISED_LIMIT = 1_000_000;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      players: { type: 'string', default: '50' },
      rounds: { type: 'string', default: '200' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = integerReader(values);
  return {
    help: values.help,
    json: values.json,
    players: integer('players', [1, 5000]),
    rounds: integer('rounds', [1, 100_000]),
  };
}

/** Runs a command; its wall time in ms. Throws with its output when it fails. */
function timed(command, args, cwd = ROOT) {
  const started = performance.now();
  execFileSync(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  return performance.now() - started;
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: percentile(sorted, 50), p99: percentile(sorted, 99) };
}

function buildNative(dir) {
  const build = join(dir, 'build');
  const prefix = join(dir, 'prefix');
  const sdk = join(ROOT, 'packages/sdk-cpp');
  execFileSync('cmake', ['-S', sdk, '-B', build, '-DCMAKE_BUILD_TYPE=Release'], { stdio: 'pipe' });
  const buildMs = timed('cmake', ['--build', build, '-j', '2']);
  execFileSync('cmake', ['--install', build, '--prefix', prefix], { stdio: 'pipe' });
  const shared = join(build, 'libplatformpp.so');
  const stripped = join(dir, 'stripped.so');
  copyFileSync(shared, stripped);
  execFileSync('strip', ['--strip-unneeded', stripped]);
  const benchBuild = join(dir, 'bench');
  execFileSync(
    'cmake',
    ['-S', join(ROOT, 'bench/sdk-cpp'), '-B', benchBuild, `-DCMAKE_PREFIX_PATH=${prefix}`],
    { stdio: 'pipe' },
  );
  execFileSync('cmake', ['--build', benchBuild, '-j', '2'], { stdio: 'pipe' });
  return {
    buildMs,
    sharedBytes: statSync(shared).size,
    strippedBytes: statSync(stripped).size,
    staticBytes: statSync(join(build, 'libplatformpp.a')).size,
    binary: join(benchBuild, 'sdk-bench'),
  };
}

/** The bytes of the .js files under `dir`, its browser bundle left out. */
function jsBytes(dir) {
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== 'bundle') bytes += jsBytes(path);
    else if (entry.isFile() && entry.name.endsWith('.js')) bytes += statSync(path).size;
  }
  return bytes;
}

function buildTypeScript() {
  const buildMs = timed('npm', ['run', 'build', '--silent', '-w', 'packages/sdk']);
  const dist = join(ROOT, 'packages/sdk/dist');
  return {
    buildMs,
    nodeBytes: jsBytes(dist),
    bundleBytes: statSync(join(dist, 'bundle/guildhall-social-sdk.js')).size,
  };
}

async function until(check, what) {
  const deadline = performance.now() + 20_000;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(1);
  }
}

/** The TypeScript SDK's rows, measured as bench/sdk.js measures them. */
async function measureTypeScript(sdk, { apiUrl, tokens, rounds }) {
  const { Client, ClientStatus, AuthorizationTokenType } = sdk;
  const connect = async (token) => {
    const client = new Client({ apiBase: apiUrl });
    await client.updateToken(AuthorizationTokenType.Bearer, token);
    let readyAt = null;
    client.setStatusChangedCallback((status) => {
      if (status === ClientStatus.Ready) readyAt ??= performance.now();
    });
    const started = performance.now();
    client.connect();
    await until(() => readyAt !== null, 'Ready');
    return { client, ms: readyAt - started };
  };
  const ready = [];
  for (const token of tokens.players) {
    const { client, ms } = await connect(token);
    ready.push(ms);
    client.disconnect();
  }
  const ada = (await connect(tokens.ada)).client;
  const bob = (await connect(tokens.bob)).client;
  const adaId = ada.getCurrentUserV2().id();
  const bobId = bob.getCurrentUserV2().id();
  await ada.sendGameFriendRequestById(bobId);
  await until(() => bob.getRelationshipHandle(adaId).gameRelationshipType() === 3, 'a request');
  await bob.acceptGameFriendRequest(adaId);
  await until(() => ada.getRelationshipHandle(bobId).gameRelationshipType() === 1, 'friends');
  let waiting = null;
  bob.setMessageCreatedCallback((id) => {
    if (waiting !== null && bob.getMessageHandle(id)?.content() === waiting.content) waiting.done();
  });
  const dm = [];
  for (let i = 0; i < rounds; i += 1) {
    const content = `round ${i}`;
    const started = performance.now();
    const arrived = new Promise((resolve) => (waiting = { content, done: resolve }));
    await ada.sendUserMessage(bobId, content);
    await arrived;
    dm.push(performance.now() - started);
  }
  ada.disconnect();
  bob.disconnect();
  return { ready, dm };
}

function measureNative(binary, { apiUrl, tokens, rounds }) {
  return new Promise((resolve, reject) => {
    const child = spawn(binary, [String(tokens.players.length), String(rounds)]);
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.stderr.on('data', (chunk) => process.stderr.write(chunk));
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`sdk-bench exited with ${code}`)),
    );
    child.stdin.end([apiUrl, ...tokens.players, tokens.ada, tokens.bob].join('\n') + '\n');
  });
}

async function run(options, sdk) {
  const progress = (text) => options.json || process.stderr.write(`${text}\n`);
  const dir = mkdtempSync(join(os.tmpdir(), 'guildhall-bench-sdk-cpp-'));
  try {
    progress('building the native SDK (Release, -j 2)…');
    const native = buildNative(dir);
    progress('building the TypeScript SDK…');
    const ts = buildTypeScript();
    const server = await startServer('guildhallServer.js', [join(dir, 'data')], {
      env: {
        GUILDHALL_BENCH_SETTINGS: JSON.stringify({
          GUILDHALL_GLOBAL_RATE_LIMIT: String(RAISED_LIMIT),
          GUILDHALL_ROUTE_RATE_LIMIT: `${RAISED_LIMIT}/1`,
        }),
      },
      logFile: join(dir, 'server.log'),
    });
    try {
      let minted = 0;
      const mint = async () => {
        const res = await globalThis.fetch(`${server.apiUrl}/partner-sdk/token/bot`, {
          method: 'POST',
          headers: { authorization: `Bot ${server.botToken}`, 'content-type': 'application/json' },
          body: JSON.stringify({ external_user_id: `bench-${minted++}` }),
        });
        if (!res.ok) throw new Error(`minting: ${res.status}`);
        return (await res.json()).access_token;
      };
      const tokensFor = async () => ({
        players: await Promise.all(Array.from({ length: options.players }, mint)),
        ada: await mint(),
        bob: await mint(),
      });
      progress('the TypeScript SDK: ready and DM round trips…');
      const tsRows = await measureTypeScript(sdk, {
        apiUrl: server.apiUrl,
        tokens: await tokensFor(),
        rounds: options.rounds,
      });
      progress('the native SDK: ready and DM round trips…');
      const cppRows = await measureNative(native.binary, {
        apiUrl: server.apiUrl,
        tokens: await tokensFor(),
        rounds: options.rounds,
      });
      return {
        storage: server.storage,
        players: options.players,
        rounds: options.rounds,
        native: {
          ...native,
          binary: undefined,
          ready: summary(cppRows.ready),
          dm: summary(cppRows.dm),
        },
        typescript: { ...ts, ready: summary(tsRows.ready), dm: summary(tsRows.dm) },
      };
    } finally {
      await server.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function printTable(r) {
  const kib = (bytes) => (bytes / 1024).toFixed(0);
  const ms = (v) => v.toFixed(2);
  const ratio = (a, b) => (a / b).toFixed(2);
  console.log(
    `Social SDKs on Guildhall (${r.storage}, npm start settings, rate limits raised); ` +
      `${r.players} players, ${r.rounds} DM round trips`,
  );
  console.log('');
  console.log('| row | native (C++) | TypeScript | native ÷ TypeScript |');
  console.log('| --- | -----------: | ---------: | ------------------: |');
  console.log(
    `| build (s) | ${(r.native.buildMs / 1000).toFixed(1)} | ${(r.typescript.buildMs / 1000).toFixed(1)} | ${ratio(r.native.buildMs, r.typescript.buildMs)} |`,
  );
  console.log(
    `| shared library (KiB) | ${kib(r.native.strippedBytes)} stripped (${kib(r.native.sharedBytes)} as built) | ${kib(r.typescript.bundleBytes)} browser bundle | ${ratio(r.native.strippedBytes, r.typescript.bundleBytes)} |`,
  );
  console.log(
    `| static library (KiB) | ${kib(r.native.staticBytes)} .a | ${kib(r.typescript.nodeBytes)} Node build (dist/**/*.js) | ${ratio(r.native.staticBytes, r.typescript.nodeBytes)} |`,
  );
  for (const [name, key] of [
    ['ready p50 / p99 (ms)', 'ready'],
    ['DM round trip p50 / p99 (ms)', 'dm'],
  ]) {
    const n = r.native[key];
    const t = r.typescript[key];
    console.log(
      `| ${name} | ${ms(n.p50)} / ${ms(n.p99)} | ${ms(t.p50)} / ${ms(t.p99)} | ${ratio(n.p50, t.p50)} / ${ratio(n.p99, t.p99)} |`,
    );
  }
}

async function main() {
  const { options, exitCode } = readOptions(parseOptions, USAGE);
  if (options === null) return exitCode;
  let sdk;
  try {
    sdk = await import('../packages/sdk/dist/node.js');
  } catch (err) {
    console.error(
      `The TypeScript SDK is not built (${err.message.split('\n')[0]}): run \`npm run build\` first.`,
    );
    return 2;
  }
  const result = await run(options, sdk);
  if (options.json) console.log(JSON.stringify(result, null, 2));
  else printTable(result);
  return 0;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
