/**
 * A child process for the crash test: writes users, each with its tokens in the same transaction,
 * forever, printing each user id on its own line once its transaction has committed. The parent
 * kills it with SIGKILL mid-stream.
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

/** The token hashes written with a user: derived from its id, so the parent can look them up. */
export function crashTokenHashes(userId: string): string[] {
  return Array.from({ length: TOKENS_PER_USER }, (_, i) =>
    createHash('sha256').update(`crash:${userId}:${i}`).digest('hex'),
  );
}

async function writeUntilKilled(args: readonly string[]): Promise<never> {
  const storage = await openTarget(parseTargetArgs(args));
  const nextId = createSnowflakeGenerator({ clock: systemClock, workerId: CRASH_WORKER_ID });
  for (;;) {
    const userId = nextId();
    const createdAt = systemClock.now();
    await storage.transaction(async (tx) => {
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
  }
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  exitOnUnhandledErrors();
  await writeUntilKilled(process.argv.slice(2));
}
