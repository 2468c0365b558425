/**
 * The Social SDK for TypeScript (packages/sdk) against the real Guildhall app: how long a game's
 * client takes from connect() to Ready, alone and when many players connect at once, and the
 * round trip of a DM and of a lobby message from one player's client to the other's callback.
 * The server is a child process (support/guildhallServer.js) with `npm start`'s settings. See
 * docs/benchmarks.md.
 */
import console from 'node:console';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { startServer } from './support/childServer.js';
import { percentile } from './support/stats.js';
import { readOptions } from './support/options.js';

const USAGE = `Usage: node bench/sdk.js [options]   (npm run bench:sdk builds first)

Players are provisional accounts minted by the game's backend (POST
/partner-sdk/token/bot with the bot token), each with its own SDK Client from
packages/sdk/dist/node.js, all in this process.

Rows:
  ready, one at a time   connect() until Client::Status Ready, one player after another
  ready, all at once     --players clients connect together: p50/p99 per client and the
                         time until the last one is Ready
  DM round trip          Ada's sendUserMessage until Bob's message-created callback, one
                         in flight, --rounds times (Ada and Bob are game friends)
  lobby round trip       Ada's sendLobbyMessage until Bob's message-created callback

The server runs with the settings \`npm start\` gives it (SQLite on disk, logs at info), with
the rate limits raised as bench/http.js raises them (one backend mints every player) and the
cap on unidentified gateway connections per address raised (every player is on 127.0.0.1).

Options:
  --players <n>     players connecting at once (default 100)
  --rounds <n>      round trips per message kind (default 200)
  --data-dir <dir>  where the server's data and log go, in a new folder removed afterwards
                    (default: the system's temporary folder)
  --address-cap     keep the gateway's cap of 32 connections per address not yet identified
                    (every player here connects from 127.0.0.1; by default the cap is raised
                    to 2 × players + 8 so that players wait for the server, not for a retry)
  --json            print the results as JSON instead of a table
  --help            print this help

Environment:
  BENCH_PROFILE=<dir>  write a CPU profile of the server child into <dir> (summarize it with
                       node bench/support/cpuProfile.js <file>)

Exit status: 0 when every player reached Ready and every message arrived, 1 otherwise.`;

const RAISED_LIMIT = 1_000_000;
/** How long one step (a Ready, a delivery) may take before the benchmark gives up. */
const STEP_TIMEOUT_MS = 20_000;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      players: { type: 'string', default: '100' },
      rounds: { type: 'string', default: '200' },
      'data-dir': { type: 'string', default: os.tmpdir() },
      json: { type: 'boolean', default: false },
      'address-cap': { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = (name, raw, [min, max]) => {
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max)
      throw new Error(`--${name} takes integers from ${min} to ${max}; got "${raw}".`);
    return value;
  };
  return {
    help: values.help,
    json: values.json,
    players: integer('players', values.players, [2, 5000]),
    rounds: integer('rounds', values.rounds, [1, 100_000]),
    dataDir: values['data-dir'],
    addressCap: values['address-cap'],
  };
}

/** Settles when `check()` is true, polling every millisecond; rejects after STEP_TIMEOUT_MS. */
async function until(check, what) {
  const deadline = performance.now() + STEP_TIMEOUT_MS;
  while (!check()) {
    if (performance.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(1);
  }
}

function summary(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99) };
}

async function run(options, sdk) {
  const { Client, ClientStatus, AuthorizationTokenType } = sdk;
  const dir = await mkdtemp(join(options.dataDir, 'guildhall-bench-sdk-'));
  const settings = {
    GUILDHALL_GLOBAL_RATE_LIMIT: String(RAISED_LIMIT),
    GUILDHALL_ROUTE_RATE_LIMIT: `${RAISED_LIMIT}/1`,
    // Every player connects from 127.0.0.1: past the cap on connections per address not yet
    // identified (32) the rest would get HTTP 429 and retry 0.5–1 s later, which players on
    // their own addresses never do. --address-cap keeps the shipped cap.
    ...(options.addressCap
      ? {}
      : { GUILDHALL_GATEWAY_MAX_UNIDENTIFIED: String(Math.min(100_000, 2 * options.players + 8)) }),
  };
  const server = await startServer('guildhallServer.js', [join(dir, 'data')], {
    // BENCH_PROFILE=<folder>: a CPU profile of the server child goes there.
    execArgv: process.env.BENCH_PROFILE
      ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
      : [],
    env: { GUILDHALL_BENCH_SETTINGS: JSON.stringify(settings) },
    logFile: join(dir, 'server.log'),
  });
  const clients = [];
  try {
    let minted = 0;
    const mint = async (name) => {
      const res = await globalThis.fetch(`${server.apiUrl}/partner-sdk/token/bot`, {
        method: 'POST',
        headers: { authorization: `Bot ${server.botToken}`, 'content-type': 'application/json' },
        body: JSON.stringify({
          external_user_id: `${name}-${minted++}`,
          preferred_global_name: name,
        }),
      });
      const body = await res.json();
      if (!res.ok) throw new Error(`minting ${name}: ${res.status} ${JSON.stringify(body)}`);
      return body.access_token;
    };
    /** A client for `token`, connected; resolves with the ms from connect() to Ready. */
    const connect = async (token) => {
      const client = new Client({ apiBase: server.apiUrl });
      clients.push(client);
      await client.updateToken(AuthorizationTokenType.Bearer, token);
      let readyAt = null;
      let retried = false;
      client.setStatusChangedCallback((status) => {
        if (status === ClientStatus.Ready) readyAt ??= performance.now();
        // Refused (HTTP 429 past the per-address cap, say): the SDK tries again 0.5–1 s later.
        if (status === ClientStatus.Reconnecting && readyAt === null) retried = true;
      });
      const started = performance.now();
      client.connect();
      await until(() => readyAt !== null, 'a client to be Ready');
      return { client, ms: readyAt - started, retried };
    };

    const progress = (text) => {
      if (!options.json) process.stderr.write(`${text}\n`);
    };
    progress(`minting ${options.players * 2 + 2} provisional players…`);
    const sequentialTokens = [];
    for (let i = 0; i < options.players; i += 1) sequentialTokens.push(await mint('solo'));
    const crowdTokens = [];
    for (let i = 0; i < options.players; i += 1) crowdTokens.push(await mint('crowd'));

    progress('ready, one at a time…');
    const sequential = [];
    for (const token of sequentialTokens) {
      const { client, ms } = await connect(token);
      sequential.push(ms);
      client.disconnect();
    }

    progress(`ready, ${options.players} at once…`);
    const crowdStarted = performance.now();
    const crowd = await Promise.all(crowdTokens.map((token) => connect(token)));
    const crowdAllMs = performance.now() - crowdStarted;
    for (const { client } of crowd) client.disconnect();

    progress('DM and lobby round trips…');
    const ada = (await connect(await mint('Ada'))).client;
    const bob = (await connect(await mint('Bob'))).client;
    const adaId = ada.getCurrentUserV2().id();
    const bobId = bob.getCurrentUserV2().id();
    await ada.sendGameFriendRequestById(bobId);
    await until(() => bob.getRelationshipHandle(adaId) !== null, "Ada's friend request");
    await bob.acceptGameFriendRequest(adaId);
    await until(
      () => ada.getRelationshipHandle(bobId).gameRelationshipType() === 1,
      'the friendship',
    );
    const secret = `bench-${Date.now().toString(36)}`;
    const lobbyId = await ada.createOrJoinLobby(secret);
    await bob.createOrJoinLobby(secret);

    let waiting = null;
    bob.setMessageCreatedCallback((messageId) => {
      const message = bob.getMessageHandle(messageId);
      if (waiting !== null && message?.content() === waiting.content) waiting.resolve();
    });
    const roundTrips = async (send) => {
      const samples = [];
      for (let i = 0; i < options.rounds; i += 1) {
        const content = `round ${i} ${performance.now()}`;
        const started = performance.now();
        const arrived = new Promise((resolve, reject) => {
          const timer = setTimeout(
            () => reject(new Error(`"${content}" never arrived`)),
            STEP_TIMEOUT_MS,
          );
          waiting = { content, resolve: () => (clearTimeout(timer), resolve()) };
        });
        await send(content);
        await arrived;
        samples.push(performance.now() - started);
      }
      waiting = null;
      return samples;
    };
    const dm = await roundTrips((content) => ada.sendUserMessage(bobId, content));
    const lobby = await roundTrips((content) => ada.sendLobbyMessage(lobbyId, content));

    return {
      storage: server.storage,
      players: options.players,
      rounds: options.rounds,
      rows: [
        { name: 'ready, one at a time', ...summary(sequential), totalMs: null },
        {
          name: 'ready, all at once',
          ...summary(crowd.map((c) => c.ms)),
          totalMs: crowdAllMs,
          retried: crowd.filter((c) => c.retried).length,
        },
        { name: 'DM round trip', ...summary(dm), totalMs: null },
        { name: 'lobby round trip', ...summary(lobby), totalMs: null },
      ],
    };
  } finally {
    for (const client of clients) client.disconnect();
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function printTable(result) {
  const ms = (v) => (v === null ? '' : v.toFixed(2));
  console.log(
    `Social SDK on Guildhall (${result.storage}, npm start settings, rate limits raised); ` +
      `${result.players} players at once, ${result.rounds} round trips per kind`,
  );
  console.log('');
  console.log('| step | samples | p50 ms | p99 ms | all done ms |');
  console.log('| ---- | ------: | -----: | -----: | ----------: |');
  for (const row of result.rows) {
    console.log(
      `| ${row.name} | ${row.n} | ${ms(row.p50Ms)} | ${ms(row.p99Ms)} | ${ms(row.totalMs)} |`,
    );
  }
  const crowd = result.rows.find((row) => row.retried !== undefined);
  console.log('');
  console.log(`Players of the crowd that were refused and connected again: ${crowd?.retried ?? 0}`);
}

async function main() {
  const { options, exitCode } = readOptions(parseOptions, USAGE);
  if (options === null) return exitCode;
  let sdk;
  try {
    sdk = await import('../packages/sdk/dist/node.js');
  } catch (err) {
    console.error(
      `The SDK is not built (${err.message.split('\n')[0]}): run \`npm run build\` first.`,
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
