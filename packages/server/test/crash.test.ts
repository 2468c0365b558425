import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { collectChild, spawnSupportScript } from './support/children.js';
import { STATS_LINE_PREFIX, TOKENS_PER_USER, crashTokenHashes } from './support/crashWriter.js';
import {
  TEST_DATABASE_URL,
  acquireSchema,
  postgresAvailable,
  releaseSchema,
} from './support/postgres.js';
import {
  openTarget,
  queryTarget,
  targetArgs,
  type StorageTarget,
} from './support/storageTarget.js';

/**
 * Commits to see before each kill; the deadline, counted from the first commit (a child's start
 * takes seconds on a loaded machine), bounds the wait on a slow disk. The start has its own bound.
 */
const KILL_AFTER_COMMITS = 200;
const KILL_DEADLINE_MS = 8_000;
const START_DEADLINE_MS = 60_000;
/** Fewer commits than this in a run and it proved too little to pass. */
const MIN_COMMITS = 20;
/** Writer runs per database, each killed, each reopening what the last one left. */
const ROUNDS = 2;
/** PostgreSQL connections of the check after a crash. */
const CHECK_CONNECTIONS = 8;
/** A test's bound: every round's start and writes, and the checks. */
const ROUND_TIMEOUT_MS = ROUNDS * (START_DEADLINE_MS + KILL_DEADLINE_MS) + 20_000;

/**
 * Runs the writer against the target until it has reported enough commits (or the deadline
 * passes), kills it with SIGKILL while it keeps writing, and returns the user ids it reported.
 * Its writers must have shared group commit batches: fewer batches than members.
 */
async function writeThenKill(target: StorageTarget): Promise<string[]> {
  const child = spawnSupportScript('crashWriter', targetArgs(target));
  const reported: string[] = [];
  let groupCommits = { batches: 0, members: 0 };
  let pending = '';
  let firstLineAt = 0;
  let killTimer: NodeJS.Timeout | undefined;
  const kill = () => child.kill('SIGKILL');
  let deadline = setTimeout(kill, START_DEADLINE_MS);
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    if (firstLineAt === 0) {
      firstLineAt = performance.now();
      clearTimeout(deadline);
      deadline = setTimeout(kill, KILL_DEADLINE_MS);
    }
    // Only whole lines count: a line cut short by the kill was never fully reported.
    const lines = (pending + chunk).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.startsWith(STATS_LINE_PREFIX)) reported.push(line);
      else {
        const [batches = 0, members = 0] = line
          .slice(STATS_LINE_PREFIX.length)
          .split(' ')
          .map(Number);
        groupCommits = { batches, members };
      }
    }
    if (reported.length >= KILL_AFTER_COMMITS && killTimer === undefined) {
      // Killing right on a line would always land at the start of a transaction; a random delay
      // of up to three transactions lands anywhere inside one.
      const msPerCommit = (performance.now() - firstLineAt) / reported.length;
      killTimer = setTimeout(kill, Math.random() * 3 * msPerCommit);
    }
  });
  try {
    const result = await collectChild(child);
    // Exiting by itself means the writer failed (its error is on stderr), not that it was killed.
    expect(result, result.stderr).toMatchObject({ code: null, signal: 'SIGKILL' });
  } finally {
    clearTimeout(deadline);
    clearTimeout(killTimer);
  }
  expect(reported.length).toBeGreaterThanOrEqual(MIN_COMMITS);
  expect(groupCommits.members).toBeGreaterThan(0);
  expect(groupCommits.batches).toBeLessThan(groupCommits.members);
  return reported;
}

/**
 * Checks the database after a crash: the commits the last writer reported read back whole through
 * the repositories, every commit reported so far is still there, and no transaction left only
 * part of its rows.
 */
async function expectCommittedAndWhole(
  target: StorageTarget,
  commits: { latest: readonly string[]; reported: readonly string[] },
): Promise<void> {
  // The lookups go out together, over several connections: one after another, the thousand or
  // so of them took seconds on PostgreSQL.
  const storage = await openTarget(target, { maxConnections: CHECK_CONNECTIONS });
  try {
    await Promise.all(
      commits.latest.map(async (userId) => {
        expect(await storage.users.findById(userId), `user ${userId}`).toMatchObject({
          username: `crash_${userId}`,
        });
        for (const hash of crashTokenHashes(userId)) {
          expect(await storage.tokens.findByHash(hash), `token of ${userId}`).toMatchObject({
            userId,
          });
        }
      }),
    );
  } finally {
    await storage.close();
  }
  const users = await queryTarget<{ id: string; tokens: number }>(
    target,
    `SELECT CAST(u.id AS TEXT) AS id, CAST(COUNT(t.hash) AS INTEGER) AS tokens
       FROM users u LEFT JOIN tokens t ON t.user_id = u.id GROUP BY u.id`,
  );
  const stored = new Set(users.map((user) => user.id));
  expect(commits.reported.filter((userId) => !stored.has(userId))).toEqual([]);
  // A writer may have committed a transaction it had no time to report: that one is whole too.
  // What must never exist is a user without all its tokens.
  expect(users.filter((user) => user.tokens !== TOKENS_PER_USER)).toEqual([]);
}

/** Crashes the writer {@link ROUNDS} times on one database, checking it after every crash. */
async function crashRepeatedly(target: StorageTarget): Promise<void> {
  const reported: string[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const latest = await writeThenKill(target);
    reported.push(...latest);
    await expectCommittedAndWhole(target, { latest, reported });
  }
}

describe('a process killed with SIGKILL in the middle of writes', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  it(
    'loses no committed write and leaves no half-written change (SQLite)',
    async () => {
      const dir = await mkdtemp(join(tmpdir(), 'guildhall-crash-'));
      cleanups.push(() => rm(dir, { recursive: true, force: true }));
      const target: StorageTarget = { dialect: 'sqlite', filename: join(dir, 'guildhall.db') };

      await crashRepeatedly(target);
      expect(await queryTarget(target, 'PRAGMA integrity_check')).toEqual([
        { integrity_check: 'ok' },
      ]);
    },
    ROUND_TIMEOUT_MS,
  );

  it.skipIf(!postgresAvailable)(
    'loses no committed write and leaves no half-written change (PostgreSQL)',
    async () => {
      // A migrated schema of the worker's pool (emptied again after), or a new one.
      const schema = acquireSchema();
      cleanups.push(() => releaseSchema(schema));
      const target: StorageTarget = {
        dialect: 'postgres',
        connectionString: TEST_DATABASE_URL,
        schema,
      };

      await crashRepeatedly(target);
    },
    ROUND_TIMEOUT_MS,
  );
});
