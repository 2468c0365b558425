import type { Repositories, Storage } from '../storage/index.js';
import type { Dispatch, Dispatcher } from './dispatcher.js';

/** The dispatches each open transaction has announced, keyed by its repositories. */
const pending = new WeakMap<Repositories, Dispatch[]>();
/** What else each open transaction asked to run once it commits (revocations). */
const commitActions = new WeakMap<Repositories, (() => void)[]>();

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
 * {@link afterCommit} and hands it to `dispatcher` after the commit, in one ordered batch.
 */
export function dispatchingStorage(storage: Storage, dispatcher: Dispatcher): Storage {
  return {
    ...storage,
    async transaction(fn) {
      const announced: Dispatch[] = [];
      const actions: (() => void)[] = [];
      const result = await storage.transaction((tx) => {
        pending.set(tx, announced);
        commitActions.set(tx, actions);
        return fn(tx);
      });
      if (announced.length > 0) dispatcher.dispatch(announced);
      for (const action of actions) action();
      return result;
    },
  };
}
