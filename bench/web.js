/**
 * The web pages (packages/web) as a person gets them from `npm start`: what the build weighs,
 * how fast the server hands out the page and its script, how long Chromium takes to show the
 * login form and a channel with its history, and how long a bot's message takes to appear in an
 * open channel. The server is a child process (support/guildhallServer.js) with `npm start`'s
 * settings. See docs/benchmarks.md.
 */
import console from 'node:console';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { startServer } from './support/childServer.js';
import { integerReader } from './support/options.js';

const USAGE = `Usage: node bench/web.js [options]   (npm run bench:web builds first)

Measures the web client and portal the way a person gets them from \`npm start\`:

  build     the size of each file of packages/web/dist/assets, and of its Brotli copy (what
            the server sends a browser)
  serve     GET / (index.html) and GET /assets/<entry>.js with autocannon: requests/s, p50, p99
  floor     Chromium opens GET /healthz (a few bytes of JSON) in a new context, until its
            response ends: what any navigation costs here before the pages' own work
  login     Chromium opens /login with an empty cache until the "Log in" button shows
  channel   Chromium, logged in, opens a channel with --history messages until the newest
            shows (gateway READY, the history request and the render)
  live      a bot posts a message (REST); time until it shows in the open channel (through the
            gateway's MESSAGE_CREATE), one at a time

Page rows are read on the page's own clock: from the start of the navigation until a
MutationObserver (installed before the page's scripts) sees the text appear.

The server runs with \`npm start\`'s settings (SQLite on disk, logs at info) but with the rate
limits raised as bench/http.js raises them, so seeding the history is quick (static files have
no rate limit anyway). The live row is timed from Node around the REST call and Playwright's
wait, so it includes Playwright's own polling (a few ms).

Options:
  --runs <n>        page loads per browser row (default 10)
  --history <n>     messages in the channel (default 50)
  --live <n>        messages for the live row (default 20)
  --duration <s>    seconds per serve row (default 5)
  --chromium <path> the browser (default /usr/bin/chromium)
  --data-dir <dir>  where the server's data and logs go, in a new folder removed afterwards
                    (default: the system's temporary folder)
  --json            print the results as JSON instead of a table
  --help            print this help

Exit status: 0 when every step completed, 1 otherwise.`;

const RAISED_LIMIT = 1_000_000;
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = join(ROOT, 'packages/web/dist');
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      runs: { type: 'string', default: '10' },
      history: { type: 'string', default: '50' },
      live: { type: 'string', default: '20' },
      duration: { type: 'string', default: '5' },
      chromium: { type: 'string', default: '/usr/bin/chromium' },
      'data-dir': { type: 'string', default: os.tmpdir() },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = integerReader(values);
  return {
    help: values.help,
    json: values.json,
    runs: integer('runs', [1, 1000]),
    history: integer('history', [1, 100]),
    live: integer('live', [1, 1000]),
    durationSeconds: integer('duration', [1, 600]),
    chromiumPath: values.chromium,
    dataDir: values['data-dir'],
  };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
function summarize(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  return { n: sorted.length, p50: quantile(sorted, 0.5), p90: quantile(sorted, 0.9) };
}

function buildSizes() {
  const assets = join(DIST, 'assets');
  if (!existsSync(join(DIST, 'index.html'))) {
    throw new Error('packages/web/dist is missing: run `npm run build` (npm run bench:web does).');
  }
  const size = (path) => (existsSync(path) ? statSync(path).size : null);
  return (
    readdirSync(assets)
      // The maps and the compressed copies the server sends instead (scripts/compress.js).
      .filter((name) => !/\.(?:map|br|gz)$/.test(name))
      .map((name) => {
        const path = join(assets, name);
        return { file: `assets/${name}`, bytes: size(path), brotli: size(`${path}.br`) };
      })
      .sort((a, b) => b.bytes - a.bytes)
  );
}

function entryScript() {
  const html = readFileSync(join(DIST, 'index.html'), 'utf8');
  const match = /<script[^>]+src="(\/assets\/[^"]+\.js)"/.exec(html);
  if (match === null) throw new Error('index.html names no module script');
  return match[1];
}

async function serve(origin, path, durationSeconds) {
  const result = await autocannon({
    url: `${origin}${path}`,
    connections: 10,
    duration: durationSeconds,
    // Each request like a browser's first visit: no conditional headers, Chromium's encodings.
    headers: { 'accept-encoding': 'gzip, deflate, br, zstd' },
  });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`GET ${path}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  }
  return {
    path,
    requestsPerSecond: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
  };
}

async function api(server, { method = 'GET', path, auth, body }) {
  const response = await globalThis.fetch(`${server.apiUrl}${path}`, {
    method,
    headers: { authorization: auth, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

/**
 * A fresh browser context (empty cache), logged in as the person when a token is given. `until`
 * names what the measured page must show (a button's text, or a text inside the message log): a
 * MutationObserver installed before the page's own scripts records when it first appears, on the
 * page's clock (milliseconds from the start of the navigation), free of Playwright's polling.
 */
async function newPage(browser, { token, until } = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(
    ({ value, spec }) => {
      // Runs in the page, where the session token lives (packages/web/src/lib/session.ts).
      if (value !== undefined) globalThis.localStorage.setItem('token', value);
      if (spec === undefined) return;
      const shown = () =>
        spec.button !== undefined
          ? [...globalThis.document.querySelectorAll('button')].some(
              (b) => b.textContent === spec.button,
            )
          : [...globalThis.document.querySelectorAll('[role=log]')].some((log) =>
              log.textContent.includes(spec.logText),
            );
      globalThis.__shownAt = new Promise((resolve) => {
        const observer = new globalThis.MutationObserver(() => {
          if (shown()) {
            observer.disconnect();
            resolve(globalThis.performance.now());
          }
        });
        observer.observe(globalThis.document, {
          subtree: true,
          childList: true,
          characterData: true,
        });
      });
    },
    { value: token, spec: until },
  );
  const page = await context.newPage();
  return { page, close: () => context.close() };
}

/** Page loads in new contexts: ms from navigation start until `until` shows, per run. */
async function timeLoads(browser, { url, runs, token, until }) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const { page, close } = await newPage(browser, { token, until });
    await page.goto(url);
    samples.push(await page.evaluate(() => globalThis.__shownAt));
    await close();
  }
  return summarize(samples);
}

/** The floor under the page rows: a new context's navigation to a tiny response (GET /healthz). */
async function timeFloor(browser, { origin, runs }) {
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const { page, close } = await newPage(browser);
    await page.goto(`${origin}/healthz`);
    samples.push(
      await page.evaluate(
        () => globalThis.performance.getEntriesByType('navigation')[0].responseEnd,
      ),
    );
    await close();
  }
  return summarize(samples);
}

async function timeLive(browser, { origin, server, count }) {
  const { page, close } = await newPage(browser, { token: server.personToken });
  await page.goto(`${origin}/channels/${server.guildId}/${server.channelId}`);
  const log = page.getByRole('log', { name: 'Messages' });
  await log.waitFor();
  const samples = [];
  for (let i = 0; i < count; i += 1) {
    const content = `live ${i} ${process.pid}`;
    const started = performance.now();
    await api(server, {
      method: 'POST',
      path: `/channels/${server.channelId}/messages`,
      auth: `Bot ${server.botToken}`,
      body: { content },
    });
    await log.getByText(content, { exact: true }).waitFor();
    samples.push(performance.now() - started);
  }
  await close();
  return summarize(samples);
}

function printTable(results) {
  const ms = (value) => `${value.toFixed(1)} ms`;
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log('\nBuild (packages/web/dist/assets)');
  console.log('| file | size | sent (Brotli) |\n| --- | ---: | ---: |');
  for (const row of results.build)
    console.log(
      `| ${row.file} | ${kib(row.bytes)} | ${row.brotli === null ? '–' : kib(row.brotli)} |`,
    );
  console.log('\nServing (autocannon, 10 connections)');
  console.log('| path | req/s | p50 | p99 |\n| --- | ---: | ---: | ---: |');
  for (const row of results.serve) {
    console.log(`| ${row.path} | ${row.requestsPerSecond} | ${row.p50} ms | ${row.p99} ms |`);
  }
  console.log('\nChromium (headless, 1280x800)');
  console.log('| step | runs | p50 | p90 |\n| --- | ---: | ---: | ---: |');
  for (const [name, row] of Object.entries(results.browser)) {
    console.log(`| ${name} | ${row.n} | ${ms(row.p50)} | ${ms(row.p90)} |`);
  }
}

async function main() {
  const options = parseOptions(process.argv.slice(2));
  if (options.help) {
    console.log(USAGE);
    return;
  }
  if (!existsSync(options.chromiumPath)) {
    throw new Error(
      `no browser at ${options.chromiumPath}: install Debian's chromium (apt-get install -y chromium) or pass --chromium`,
    );
  }
  const build = buildSizes();
  const dataDir = await mkdtemp(join(options.dataDir, 'guildhall-bench-web-'));
  const log = (line) => {
    if (!options.json) console.error(line);
  };
  let server = null;
  let browser = null;
  try {
    log('starting the server (npm start settings, rate limits raised)…');
    server = await startServer('guildhallServer.js', [join(dataDir, 'data')], {
      logFile: join(dataDir, 'server.log'),
      env: {
        GUILDHALL_BENCH_SETTINGS: JSON.stringify({
          GUILDHALL_GLOBAL_RATE_LIMIT: String(RAISED_LIMIT),
          GUILDHALL_ROUTE_RATE_LIMIT: `${RAISED_LIMIT}/1`,
        }),
      },
    });
    const origin = new URL(server.apiUrl).origin;
    log(`seeding ${options.history} messages…`);
    let newest = '';
    for (let i = 0; i < options.history; i += 1) {
      newest = `history ${i}: ${'lorem ipsum '.repeat(1 + (i % 8))}`.trim();
      await api(server, {
        method: 'POST',
        path: `/channels/${server.channelId}/messages`,
        auth: `Bot ${server.botToken}`,
        body: { content: newest },
      });
    }
    log('serving…');
    const serveRows = [];
    for (const path of ['/', entryScript()]) {
      serveRows.push(await serve(origin, path, options.durationSeconds));
      await server.settle();
    }
    log('Chromium…');
    browser = await chromium.launch({ executablePath: options.chromiumPath, args: CHROMIUM_ARGS });
    const results = {
      build,
      serve: serveRows,
      browser: {
        'GET /healthz, the floor (cold)': await timeFloor(browser, { origin, runs: options.runs }),
        'login form (cold)': await timeLoads(browser, {
          url: `${origin}/login`,
          runs: options.runs,
          until: { button: 'Log in' },
        }),
        [`channel, ${options.history} messages (cold)`]: await timeLoads(browser, {
          url: `${origin}/channels/${server.guildId}/${server.channelId}`,
          runs: options.runs,
          token: server.personToken,
          until: { logText: newest },
        }),
        'bot message → shown (live)': await timeLive(browser, {
          origin,
          server,
          count: options.live,
        }),
      },
    };
    if (options.json) console.log(JSON.stringify(results, null, 2));
    else printTable(results);
  } finally {
    await browser?.close();
    await server?.stop();
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
