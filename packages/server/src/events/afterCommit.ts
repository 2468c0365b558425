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
 * The storage services use: each `transaction` collects what its body announces with
 * {@link afterCommit} and hands it to `dispatcher` after the commit, in one ordered batch; what
 * its own statements write is announced with {@link afterWrite}.
 */
export function dispatchingStorage(
  storage: Storage,
  dispatcher: Dispatcher,
  onTaskError: (err: unknown) => void = () => undefined,
): Storage {
  const wrapped: Storage = {
    ...storage,
    async transaction(fn) {
      const announced: Dispatch[] = [];
      const queued: CommitTask[] = [];
      const actions: (() => void)[] = [];
      const result = await storage.transaction((tx) => {
        pending.set(tx, announced);
        tasks.set(tx, queued);
        commitActions.set(tx, actions);
        return fn(tx);
      });
      if (announced.length > 0) dispatcher.dispatch(announced);
      for (const action of actions) action();
      for (const task of queued) await task(storage).catch(onTaskError);
      return result;
    },
  };
  autoCommitted.set(wrapped, dispatcher);
  return wrapped;
}
