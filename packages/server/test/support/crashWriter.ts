/**
 * A child process for the crash test: writes users, each with its tokens in the same transaction,
 * forever, printing each user id on its own line once its transaction has committed. The parent
 * kills it with SIGKILL mid-stream. Several writers run at once, all but one through group
 * commit (so batches of several members are in flight when the kill lands), one through a plain
 * transaction; every {@link STATS_EVERY} commits a line `# <batches> <members>` gives the group
 * commit's counts.
 *
 * Usage: `crashWriter.ts sqlite <file>` or `crashWriter.ts postgres <url> <schema>`.
 */
import { createHash } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import { systemClock } from '../../src/domain/clock.js';
import { createSnowflakeGenerator } from '../../src/domain/snowflakes.js';
import { TokenKinds } from '../../src/storage/index.js';
import { exitOnUnhandledErrors, openTarget, parseTargetArgs } from './storageTarget.js';

/** The one process writing ids to the database. */
const CRASH_WORKER_ID = 7;

/** How many tokens each transaction writes beside its user. */
export const TOKENS_PER_USER = 5;

/** Writers running at once: one with a plain transaction, the others group-committed. */
const WRITERS = 8;

/** Commits between two lines of group commit counts. */
const STATS_EVERY = 50;

/** The start of a line of counts, which is not a user id. */
export const STATS_LINE_PREFIX = '# ';

/** The token hashes written with a user: derived from its id, so the parent can look them up. */
export function crashTokenHashes(userId: string): string[] {
  return Array.from({ length: TOKENS_PER_USER }, (_, i) =>
    createHash('sha256').update(`crash:${userId}:${i}`).digest('hex'),
  );
}

async function writeUntilKilled(args: readonly string[]): Promise<never> {
  const storage = await openTarget(parseTargetArgs(args));
  const nextId = createSnowflakeGenerator({ clock: systemClock, workerId: CRASH_WORKER_ID });
  let commits = 0;
  const write = async (grouped: boolean): Promise<never> => {
    for (;;) {
      const userId = nextId();
      const createdAt = systemClock.now();
      const begin = grouped
        ? storage.groupTransaction.bind(storage)
        : storage.transaction.bind(storage);
      await begin(async (tx) => {
        await tx.users.create({ id: userId, username: `crash_${userId}`, createdAt });
        for (const hash of crashTokenHashes(userId)) {
          await tx.tokens.create({
            hash,
            kind: TokenKinds.SESSION,
            userId,
            applicationId: null,
            scopes: [],
            createdAt,
            expiresAt: null,
          });
        }
      });
      // Only now is the write durable, so only now may the parent count on it. A pipe write is
      // synchronous on POSIX, so the line is with the parent before the next transaction starts.
      process.stdout.write(`${userId}\n`);
      commits += 1;
      if (commits % STATS_EVERY === 0) {
        const { batches, members } = storage.groupCommitStats();
        process.stdout.write(`${STATS_LINE_PREFIX}${batches} ${members}\n`);
      }
      // better-sqlite3 answers without I/O: a loop of plain transactions would never let the
      // event loop start a batch (a server yields between requests anyway).
      await new Promise((resolve) => setImmediate(resolve));
    }
  };
  return Promise.any(Array.from({ length: WRITERS }, (_, i) => write(i > 0)));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  exitOnUnhandledErrors();
  await writeUntilKilled(process.argv.slice(2));
}
