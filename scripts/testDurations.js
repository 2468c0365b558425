// Records how long each test file took, for the order the suite runs its files in
// (vitest.config.ts, `LongestFirst`): a clean clone has no vitest cache, so vitest would run
// its files by size, and a long file that happens to start last (the testkit's examples) leaves
// the other workers idle while it ends. Run the suite as CI does, then record:
//
//   CI=true npm test; node scripts/testDurations.js
//
// It reads vitest's own record of each file's last run (its results cache under
// `node_modules/.vite/vitest`, what `LongestFirst` reads on a warm checkout: the file's whole
// time, its `beforeAll` server starts included, which the JSON report's per-file times leave
// out) and writes `vitest.durations.json`: each test file's path from the repository root and
// its time in tenths of a second (rounded, so that a re-record changes only files whose cost
// really moved). A file run alone since the whole run keeps that time: record right after one.
// Files the cache does not have stay out; they run first, as vitest runs files it knows nothing
// of.
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import process from 'node:process';

const root = resolve(process.argv[2] ?? '.');
const cacheRoot = resolve(root, 'node_modules/.vite/vitest');

/** The newest results cache under `cacheRoot` (one folder per configuration hash). */
function newestResults() {
  const found = existsSync(cacheRoot)
    ? readdirSync(cacheRoot)
        .map((dir) => join(cacheRoot, dir, 'results.json'))
        .filter((path) => existsSync(path))
        .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs)
    : [];
  return found[0];
}

const resultsPath = newestResults();
if (resultsPath === undefined) {
  process.stderr.write(
    `testDurations: no vitest results under ${cacheRoot}: run \`CI=true npm test\` first\n`,
  );
  process.exit(1);
}
/** @type {{ results: [string, { duration?: number }][] }} */
const cache = JSON.parse(readFileSync(resultsPath, 'utf8'));

/**
 * Files whose cost on a clean clone is not what a warm checkout records: the native SDK's file
 * compiles the library twice when its build cache is empty (a few minutes) and not at all when it
 * is warm. Left out, it runs first, as files unknown to the record do.
 */
const RUN_FIRST = new Set(['packages/sdk-cpp/test/native.test.ts']);
/** @type {Record<string, number>} */
const durations = {};
for (const [key, result] of cache.results) {
  // `project:path`, the path from the repository root.
  const path = key.slice(key.indexOf(':') + 1);
  if (RUN_FIRST.has(path) || result.duration === undefined || !existsSync(join(root, path))) {
    continue;
  }
  durations[path] = Math.round(result.duration / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(resolve(root, 'vitest.durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(
  `vitest.durations.json: ${String(Object.keys(sorted).length)} test files recorded\n`,
);
