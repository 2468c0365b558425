import type { Repositories, Storage } from '../storage/index.js';
import type { Dispatch, Dispatcher } from './dispatcher.js';

/** The dispatches each open transaction has announced, keyed by its repositories. */
const pending = new WeakMap<Repositories, Dispatch[]>();
/** What else each open transaction asked to run once it commits (revocations). */
const commitActions = new WeakMap<Repositories, (() => void)[]>();

/** Each dispatching storage's dispatcher, for what its own auto-committed statements write. */
const autoCommitted = new WeakMap<Repositories, Dispatcher>();

/** Work to do once a transaction commits, given repositories outside it. */
export type CommitTask = (storage: Repositories) => Promise<void>;
/** The tasks each open transaction has queued, keyed by its repositories. */
const tasks = new WeakMap<Repositories, CommitTask[]>();

function isList(events: Dispatch | readonly Dispatch[]): events is readonly Dispatch[] {
  return Array.isArray(events);
}

/**
 * Announces dispatches from inside a transaction: they are published, in the order announced,
 * once the transaction commits, and never when it rolls back. Services and helpers that write
 * (recordAudit included) call this with the transaction's repositories, so no dispatch can
 * describe a change that did not happen or arrive before the change is readable.
 *
 * Repositories outside a dispatching transaction (a storage used directly by the CLI or by
 * tests seeding data) announce nothing: only changes made through the services are events.
 */
export function afterCommit(tx: Repositories, events: Dispatch | readonly Dispatch[]): void {
  const list = pending.get(tx);
  if (list === undefined) return;
  if (isList(events)) list.push(...events);
  else list.push(events);
}

/**
 * Announces dispatches for a change `repos` has just written. Inside a dispatching transaction
 * this is {@link afterCommit}; on a dispatching storage's own repositories, whose every
 * statement commits by itself, the change is already committed and they are published at once.
 * A write of one statement so announces what it changed without a transaction (and without its
 * extra round trips); other repositories announce nothing, as with {@link afterCommit}.
 */
export function afterWrite(repos: Repositories, events: Dispatch | readonly Dispatch[]): void {
  const dispatcher = autoCommitted.get(repos);
  if (dispatcher === undefined) afterCommit(repos, events);
  else dispatcher.dispatch(events);
}

/**
 * Queues work (freeing a deleted row's blob, say) to run once the transaction commits, and never
 * when it rolls back. The transaction resolves after its tasks ran; a task that fails is reported
 * to `onTaskError` and does not fail the change, which already happened (the blob sweep removes
 * what a failed or interrupted task left).
 */
export function afterCommitTask(tx: Repositories, task: CommitTask): void {
  tasks.get(tx)?.push(task);
}

/**
 * Runs `action` once the transaction of `tx` commits, never when it rolls back. Repositories
 * outside a dispatching transaction (the storage's own, whose every statement commits by itself)
 * run it at once.
 */
export function onCommit(tx: Repositories, action: () => void): void {
  const list = commitActions.get(tx);
  if (list === undefined) action();
  else list.push(action);
}

/**
 * Runs one transaction of a dispatching storage through `begin` (`transaction` or
 * `groupTransaction` of the storage below): collects what `fn` announces on its repositories and,
 * once `begin` resolves (its writes committed), publishes it, runs the commit actions and the
 * commit tasks. When `begin` rejects, none of it happens. A group member whose first run was
 * rolled back runs again: only what its last run announced counts.
 */
async function collected<T>(
  begin: (fn: (tx: Repositories) => Promise<T>) => Promise<T>,
  fn: (tx: Repositories) => Promise<T>,
  after: { storage: Storage; dispatcher: Dispatcher; onTaskError: (err: unknown) => void },
): Promise<T> {
  const announced: Dispatch[] = [];
  const queued: CommitTask[] = [];
  const actions: (() => void)[] = [];
  const result = await begin((tx) => {
    announced.length = 0;
    queued.length = 0;
    actions.length = 0;
    pending.set(tx, announced);
    tasks.set(tx, queued);
    commitActions.set(tx, actions);
    return fn(tx);
  });
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
  const wrapped: Storage = {
    ...storage,
    transaction: (fn) => collected((body) => storage.transaction(body), fn, after),
    groupTransaction: (fn) => collected((body) => storage.groupTransaction(body), fn, after),
  };
  autoCommitted.set(wrapped, dispatcher);
  return wrapped;
}
