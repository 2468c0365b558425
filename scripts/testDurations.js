// Records how long each test file took, for the order the suite runs its files in
// (vitest.config.ts, `RecordedDurations`): a clean clone has no vitest cache, so vitest would run
// its files by size, and a long file that happens to start last (the testkit's examples) leaves
// the other workers idle while it ends. Run the suite as CI does, then record:
//
//   CI=true npm test; node scripts/testDurations.js
//
// It reads the run's JSON report (`.vitest-results.json`) and writes `vitest.durations.json`:
// each test file's path from the repository root and its wall time in tenths of a second
// (rounded, so that a re-record changes only files whose cost really moved). Files the run did
// not have stay out; they run first, as vitest runs files it knows nothing of.
import { readFileSync, writeFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import process from 'node:process';

const root = resolve(process.argv[2] ?? '.');
const reportPath = resolve(root, '.vitest-results.json');
let report;
try {
  report = JSON.parse(readFileSync(reportPath, 'utf8'));
} catch (err) {
  process.stderr.write(
    `testDurations: cannot read ${reportPath} (${err.code ?? err.message}): run \`CI=true npm test\` first\n`,
  );
  process.exit(1);
}
/**
 * Files whose cost on a clean clone is not what a warm checkout records: the native SDK's file
 * compiles the library twice when its build cache is empty (a few minutes) and not at all when it
 * is warm. Left out, it runs first, as files unknown to the record do.
 */
const RUN_FIRST = new Set(['packages/sdk-cpp/test/native.test.ts']);
/** @type {Record<string, number>} */
const durations = {};
for (const file of report.testResults) {
  const path = relative(root, file.name).split('\\').join('/');
  if (RUN_FIRST.has(path)) continue;
  durations[path] = Math.round((file.endTime - file.startTime) / 100) / 10;
}
const sorted = Object.fromEntries(Object.entries(durations).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(resolve(root, 'vitest.durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
process.stdout.write(
  `vitest.durations.json: ${String(Object.keys(sorted).length)} test files recorded\n`,
);
