/**
 * A child process for the migration tests. It prints `ready`, waits for a line on stdin so that a
 * test can release several children at the same moment, then opens the storage (applying
 * migrations, as the server does at start), closes it, prints the migration versions then recorded
 * as one JSON line, and exits 0.
 *
 * Usage: `openStorage.ts sqlite <file>` or `openStorage.ts postgres <url> <schema>`.
 */
import { once } from 'node:events';
import {
  exitOnUnhandledErrors,
  openTarget,
  parseTargetArgs,
  queryTarget,
} from './storageTarget.js';

exitOnUnhandledErrors();
const target = parseTargetArgs(process.argv.slice(2));
process.stdout.write('ready\n');
await once(process.stdin, 'data');
process.stdin.destroy();

const storage = await openTarget(target);
await storage.close();
const rows = await queryTarget<{ version: number }>(
  target,
  'SELECT version FROM guildhall_migrations ORDER BY version',
);
process.stdout.write(`${JSON.stringify(rows.map((row) => row.version))}\n`);
