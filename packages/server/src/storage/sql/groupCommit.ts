/**
 * Group commit: short write transactions that arrive together share one database transaction,
 * so one commit (one fsync on SQLite, one WAL flush on PostgreSQL) makes a whole batch durable,
 * and a member that fails never fails its neighbours.
 */
import { setImmediate } from 'node:timers';
import { CompiledQuery, type Kysely } from 'kysely';
import type { GroupCommitStats, Repositories, StorageDialect } from '../types/storage.js';
import { runTurn, type Member, type Outcome } from './groupMember.js';
import type { Database } from './schema.js';

/**
 * The most members one batch holds. On PostgreSQL each member of a batch with savepoints is a
 * subtransaction with an id of its own, and a backend keeps up to 64 of them in shared memory;
 * past that every other session's snapshots must look them up on disk (a "subxid overflow").
 */
export const MAX_GROUP_SIZE = 64;

/**
 * How long one member may run before it is rolled back and refused. Members are short functions
 * that only use the repositories they are given: one that waits for anything else (the network,
 * a timer, the storage outside the batch) would hold its neighbours' answers, and on SQLite the
 * only connection, until then.
 */
export const GROUP_MEMBER_TIMEOUT_MS = 5_000;

export interface GroupCommitOptions {
  maxGroupSize: number;
  memberTimeoutMs: number;
  /** Batches that may run at once, each on a connection of its own. */
  maxConcurrentBatches: number;
}

export const DEFAULT_GROUP_COMMIT_OPTIONS = {
  maxGroupSize: MAX_GROUP_SIZE,
  memberTimeoutMs: GROUP_MEMBER_TIMEOUT_MS,
  maxConcurrentBatches: 1,
} as const satisfies GroupCommitOptions;

/** The connection one batch runs on, as its driver opens it. */
export interface BatchConnection {
  db: Kysely<Database>;
  /**
   * Whether the members of a first pass run side by side. On PostgreSQL their statements then
   * leave together on a pipelined connection, one round trip for all instead of one each.
   */
  concurrentMembers: boolean;
  /** Whether the open transaction can no longer commit (PostgreSQL, after a failed statement). */
  failed(): boolean;
}

/** Lends a connection for one batch: `use` runs with it, then it goes back. */
export type OpenBatchConnection = <T>(use: (conn: BatchConnection) => Promise<T>) => Promise<T>;

/** PostgreSQL's "current transaction is aborted": the error of a statement after a failed one. */
const IN_FAILED_TRANSACTION = '25P02';

/** Whether `err` only says that another member's statement had failed first. */
function failedBecauseOfAnother(err: unknown): boolean {
  return (
    typeof err === 'object' &&
    err !== null &&
    (err as { code?: unknown }).code === IN_FAILED_TRANSACTION
  );
}

/** The one savepoint name: each member's is released before the next member's is taken. */
const SAVEPOINT = 'group_member';

/** The batch's control statements. SQLite takes the write lock at once (the batch will write). */
function controlStatements(dialect: StorageDialect) {
  return {
    begin: dialect === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN',
    savepoint: `SAVEPOINT ${SAVEPOINT}`,
    release: `RELEASE SAVEPOINT ${SAVEPOINT}`,
    rollbackTo: `ROLLBACK TO SAVEPOINT ${SAVEPOINT}`,
    commit: 'COMMIT',
    rollback: 'ROLLBACK',
  };
}

/**
 * Runs control statements on the batch's connection: on PostgreSQL in one round trip (a simple
 * query may hold several statements), on SQLite one by one (better-sqlite3 prepares one at a
 * time, and there is no round trip to save).
 */
async function runStatements(
  conn: Kysely<Database>,
  dialect: StorageDialect,
  statements: readonly string[],
): Promise<void> {
  if (statements.length === 0) return;
  if (dialect === 'postgres') {
    await conn.executeQuery(CompiledQuery.raw(statements.join('; ')));
    return;
  }
  for (const statement of statements) await conn.executeQuery(CompiledQuery.raw(statement));
}

/**
 * A first pass that cannot commit: the members that failed on their own (rejected with their
 * error) by index; the others run again.
 */
class FirstPassFailed extends Error {
  readonly failures: ReadonlyMap<number, unknown>;
  constructor(failures: ReadonlyMap<number, unknown>) {
    super('a member of a group commit batch failed');
    this.failures = failures;
  }
}

/**
 * The group committer of one storage: `run(fn)` queues `fn` and resolves with its result once the
 * batch it ran in has committed. A batch starts a turn of the event loop after its first member
 * arrived, so the requests read in the same turn join it, and only while fewer than
 * `maxConcurrentBatches` run: what arrives while batches commit forms the next ones.
 *
 * A batch first runs its members without savepoints (side by side where the connection allows,
 * else one after the other): nothing but their own statements. When one fails, the batch is
 * rolled back, the members that failed on their own reject with their errors, and the others are
 * queued again, first in line, to run once more in a batch that gives each member a savepoint of
 * its own, one after the other (a failure there rolls back that member only). So a member runs at
 * most twice, and only its last run counts.
 */
export function createGroupCommitter(setup: {
  dialect: StorageDialect;
  openConnection: OpenBatchConnection;
  /** The repositories over a batch's connection, inside its transaction. */
  createRepositories: (conn: Kysely<Database>) => Repositories;
  options?: Partial<GroupCommitOptions>;
}) {
  const { dialect, openConnection, createRepositories } = setup;
  const { maxGroupSize, memberTimeoutMs, maxConcurrentBatches } = {
    ...DEFAULT_GROUP_COMMIT_OPTIONS,
    ...setup.options,
  };
  const statements = controlStatements(dialect);
  const queue: Member[] = [];
  const stats = { batches: 0, members: 0 };
  /** Repositories by connection handle, for drivers that lend the same one again. */
  const repositories = new WeakMap<Kysely<Database>, Repositories>();
  const repositoriesOf = (conn: Kysely<Database>) => {
    let found = repositories.get(conn);
    if (found === undefined) {
      found = createRepositories(conn);
      repositories.set(conn, found);
    }
    return found;
  };
  /** Batches running, and whether a start is scheduled for the next turn of the event loop. */
  let running = 0;
  let starting = false;
  let idle: (() => void)[] = [];

  /** The first pass in an open transaction: every outcome, or FirstPassFailed. */
  const firstPass = async (conn: BatchConnection, members: readonly Member[]) => {
    const batch = repositoriesOf(conn.db);
    const outcomes: Outcome[] = [];
    if (conn.concurrentMembers) {
      outcomes.push(
        ...(await Promise.all(members.map((member) => runTurn(member, batch, memberTimeoutMs)))),
      );
    } else {
      for (const member of members) {
        const outcome = await runTurn(member, batch, memberTimeoutMs);
        outcomes.push(outcome);
        if (!outcome.ok || conn.failed()) break;
      }
    }
    const failures = new Map<number, unknown>();
    outcomes.forEach((outcome, i) => {
      if (!outcome.ok && !failedBecauseOfAnother(outcome.error)) failures.set(i, outcome.error);
    });
    if (failures.size > 0 || outcomes.some((outcome) => !outcome.ok) || conn.failed()) {
      throw new FirstPassFailed(failures);
    }
    return outcomes;
  };

  /**
   * A pass with a savepoint per member, in an open transaction: every outcome, and the
   * statements still to send before the commit.
   */
  const savepointPass = async (conn: BatchConnection, members: readonly Member[]) => {
    const batch = repositoriesOf(conn.db);
    const outcomes: Outcome[] = [];
    let pending: string[] = [];
    for (const member of members) {
      await runStatements(conn.db, dialect, [...pending, statements.savepoint]);
      let outcome = await runTurn(member, batch, memberTimeoutMs);
      // A member that caught its failed statement still left PostgreSQL's transaction unusable.
      if (outcome.ok && conn.failed()) {
        outcome = { ok: false, error: new Error('a statement of a group commit member failed') };
      }
      outcomes.push(outcome);
      pending = outcome.ok ? [statements.release] : [statements.rollbackTo, statements.release];
    }
    return { outcomes, pending };
  };

  /**
   * Runs one batch on one connection and answers its members: each its own outcome once the
   * commit succeeded. When a control statement or the commit fails, nothing of the batch is
   * durable and every member not already failed on its own gets that error.
   */
  const commitBatch = async (members: readonly Member[], withSavepoints: boolean) => {
    let outcomes: Outcome[] = [];
    try {
      await openConnection(async (conn) => {
        try {
          await runStatements(conn.db, dialect, [statements.begin]);
          let pending: string[] = [];
          if (withSavepoints) ({ outcomes, pending } = await savepointPass(conn, members));
          else outcomes = await firstPass(conn, members);
          if (conn.failed()) throw new Error('the group commit transaction failed');
          await runStatements(conn.db, dialect, [...pending, statements.commit]);
        } catch (err) {
          // Whatever failed (a member of a first pass, a savepoint, the commit), the batch
          // goes: ROLLBACK is harmless when PostgreSQL already ended it, and its own failure (a
          // lost connection) adds nothing.
          await runStatements(conn.db, dialect, [statements.rollback]).catch(() => undefined);
          throw err;
        }
      });
    } catch (err) {
      if (err instanceof FirstPassFailed) {
        members.forEach((member, i) => {
          if (err.failures.has(i)) member.reject(err.failures.get(i));
        });
        const again = members.filter((_, i) => !err.failures.has(i));
        queue.unshift(...again.map((member) => ({ ...member, retry: true })));
        return;
      }
      members.forEach((member, i) => {
        const outcome = outcomes[i];
        member.reject(outcome === undefined || outcome.ok ? err : outcome.error);
      });
      return;
    }
    stats.batches += 1;
    stats.members += members.length;
    members.forEach((member, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok === true) member.resolve(outcome.value);
      else member.reject(outcome?.error);
    });
  };

  const start = () => {
    starting = false;
    if (queue.length === 0 || running >= maxConcurrentBatches) return;
    // Members running again (first in line) get a batch of their own, with savepoints. Other
    // waiting members are shared out evenly over the batches that may start now, so that on
    // PostgreSQL they run side by side.
    const retrying = queue[0]?.retry === true;
    let size = Math.ceil(queue.length / (maxConcurrentBatches - running));
    if (retrying) {
      const firstRuns = queue.findIndex((member) => !member.retry);
      size = firstRuns === -1 ? queue.length : firstRuns;
    }
    running += 1;
    void commitBatch(queue.splice(0, Math.min(size, maxGroupSize)), retrying).finally(() => {
      running -= 1;
      next();
    });
    next();
  };

  /**
   * Starts a batch on the next turn of the event loop, so that what arrives in this one joins
   * it, when members wait and a batch may start; tells the drain when all is done.
   */
  const next = () => {
    if (queue.length === 0) {
      if (running === 0) {
        for (const resolve of idle) resolve();
        idle = [];
      }
      return;
    }
    if (starting || running >= maxConcurrentBatches) return;
    starting = true;
    setImmediate(start);
  };

  return {
    run<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queue.push({ fn, resolve: resolve as (value: unknown) => void, reject, retry: false });
        next();
      });
    },
    /** Batches and members committed so far. */
    stats: (): GroupCommitStats => ({ ...stats }),
    /** Resolves once no batch is queued or running (before the storage closes). */
    drain(): Promise<void> {
      if (running === 0 && queue.length === 0) return Promise.resolve();
      return new Promise((resolve) => idle.push(resolve));
    },
  };
}
