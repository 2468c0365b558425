import type { CommitScope, CommitTask, Repositories, Storage } from '../storage/index.js';
import type { Dispatch, Dispatcher } from './dispatcher.js';

export type { CommitTask } from '../storage/index.js';

/**
 * Announces dispatches from inside a transaction: they are published, in the order announced,
 * once the transaction commits, and never when it rolls back. Services and helpers that write
 * (recordAudit included) call this with the transaction's repositories, so no dispatch can
 * describe a change that did not happen or arrive before the change is readable.
 *
 * Repositories outside a transaction announce nothing this way (a write of the storage's own
 * uses {@link afterWrite}), nor do those of a plain storage (used directly by the CLI or by
 * tests seeding data): only changes made through the services are events.
 */
export function afterCommit(tx: Repositories, events: Dispatch | readonly Dispatch[]): void {
  if (tx.inTransaction) tx.commit.dispatch(events);
}

/**
 * Announces dispatches for a change `repos` has just written. Inside a dispatching transaction
 * this is {@link afterCommit}; on a dispatching storage's own repositories, whose every
 * statement commits by itself, the change is already committed and they are published at once.
 * A write of one statement so announces what it changed without a transaction (and without its
 * extra round trips); other repositories announce nothing, as with {@link afterCommit}.
 */
export function afterWrite(repos: Repositories, events: Dispatch | readonly Dispatch[]): void {
  repos.commit.dispatch(events);
}

/**
 * Queues work (freeing a deleted row's blob, say) to run once the transaction commits, and never
 * when it rolls back. The transaction resolves after its tasks ran; a task that fails is reported
 * to `onTaskError` and does not fail the change, which already happened (the blob sweep removes
 * what a failed or interrupted task left). Outside a dispatching transaction it is dropped.
 */
export function afterCommitTask(tx: Repositories, task: CommitTask): void {
  tx.commit.task(task);
}

/**
 * Runs `action` once the transaction of `tx` commits, never when it rolls back. Repositories
 * outside a dispatching transaction (the storage's own, whose every statement commits by itself)
 * run it at once.
 */
export function onCommit(tx: Repositories, action: () => void): void {
  tx.commit.action(action);
}

/** What one run of a transaction body asked for after the commit, and the scope it asked with. */
interface Collected {
  readonly scope: CommitScope;
  readonly announced: Dispatch[];
  readonly queued: CommitTask[];
  readonly actions: (() => void)[];
}

function collecting(): Collected {
  const announced: Dispatch[] = [];
  const queued: CommitTask[] = [];
  const actions: (() => void)[] = [];
  const scope: CommitScope = {
    dispatch: (events) => {
      if (isList(events)) announced.push(...events);
      else announced.push(events);
    },
    task: (task) => {
      queued.push(task);
    },
    action: (action) => {
      actions.push(action);
    },
  };
  return { scope, announced, queued, actions };
}

/**
 * `tx` with `commit` as its commit scope: the same repositories, read through. A proxy rather than
 * a copy: a group member's repositories are a proxy themselves, which wraps each repository when
 * first read, and copying them all would wrap every one of them in each run.
 */
function withScope(tx: Repositories, commit: CommitScope): Repositories {
  return new Proxy(tx, {
    get(target, property) {
      if (property === 'commit') return commit;
      const value: unknown = Reflect.get(target, property);
      return value;
    },
  });
}

function isList(events: Dispatch | readonly Dispatch[]): events is readonly Dispatch[] {
  return Array.isArray(events);
}

/**
 * Runs one transaction of a dispatching storage through `begin` (`transaction` or
 * `groupTransaction` of the storage below): hands `fn` the transaction's repositories with a
 * commit scope that collects what it announces and, once `begin` resolves (its writes
 * committed), publishes it, runs the commit actions and the commit tasks. When `begin` rejects,
 * none of it happens. A group member whose first run was rolled back runs again with a fresh
 * scope: only what its last run announced counts.
 */
async function collected<T>(
  begin: (fn: (tx: Repositories) => Promise<T>) => Promise<T>,
  fn: (tx: Repositories) => Promise<T>,
  after: { storage: Storage; dispatcher: Dispatcher; onTaskError: (err: unknown) => void },
): Promise<T> {
  let run = collecting();
  const result = await begin((tx) => {
    run = collecting();
    return fn(withScope(tx, run.scope));
  });
  const { announced, actions, queued } = run;
  if (announced.length > 0) after.dispatcher.dispatch(announced);
  for (const action of actions) action();
  for (const task of queued) await task(after.storage).catch(after.onTaskError);
  return result;
}

/**
 * The storage services use: each `transaction` (and each member of a `groupTransaction`)
 * collects what its body announces with {@link afterCommit} and hands it to `dispatcher` after
 * the commit, in one ordered batch; what its own statements write is announced with
 * {@link afterWrite}. A group member's announcements leave only when its own savepoint was kept
 * and its batch committed.
 */
export function dispatchingStorage(
  storage: Storage,
  dispatcher: Dispatcher,
  onTaskError: (err: unknown) => void = () => undefined,
): Storage {
  const after = { storage, dispatcher, onTaskError };
  return {
    ...storage,
    commit: {
      dispatch: (events) => {
        dispatcher.dispatch(events);
      },
      task: () => undefined,
      action: (action) => {
        action();
      },
    },
    transaction: (fn) => collected((body) => storage.transaction(body), fn, after),
    groupTransaction: (fn) => collected((body) => storage.groupTransaction(body), fn, after),
  };
}
