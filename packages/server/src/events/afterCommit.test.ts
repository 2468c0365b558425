import { describe, expect, it } from 'vitest';
import { createSqliteStorage } from '../storage/sqlite/index.js';
import { afterCommit, afterWrite, dispatchingStorage, onCommit } from './afterCommit.js';
import type { Dispatch, Dispatcher } from './dispatcher.js';

const isList = (events: Dispatch | readonly Dispatch[]): events is readonly Dispatch[] =>
  Array.isArray(events);

function recorder() {
  const batches: Dispatch[][] = [];
  const dispatcher: Dispatcher = {
    dispatch(events) {
      batches.push(isList(events) ? [...events] : [events]);
    },
  };
  return { batches, dispatcher };
}

const event = (type: string): Dispatch => ({ type, guildId: '1', data: {} });

describe('afterCommit', () => {
  it('dispatches what a transaction announced once it commits, in order, in one batch', async () => {
    const storage = createSqliteStorage({ filename: ':memory:' });
    const { batches, dispatcher } = recorder();
    const wrapped = dispatchingStorage(storage, dispatcher);
    const result = await wrapped.transaction((tx) => {
      afterCommit(tx, event('A'));
      afterCommit(tx, [event('B'), event('C')]);
      // Nothing leaves before the commit.
      expect(batches).toEqual([]);
      return Promise.resolve(42);
    });
    expect(result).toBe(42);
    expect(batches.map((batch) => batch.map((e) => e.type))).toEqual([['A', 'B', 'C']]);
    await storage.close();
  });

  it('dispatches nothing when the transaction rolls back', async () => {
    const storage = createSqliteStorage({ filename: ':memory:' });
    const { batches, dispatcher } = recorder();
    const wrapped = dispatchingStorage(storage, dispatcher);
    await expect(
      wrapped.transaction((tx) => {
        afterCommit(tx, event('A'));
        return Promise.reject(new Error('refused'));
      }),
    ).rejects.toThrow('refused');
    await wrapped.transaction(() => Promise.resolve());
    expect(batches).toEqual([]);
    await storage.close();
  });

  it('ignores announcements outside a dispatching transaction', async () => {
    const storage = createSqliteStorage({ filename: ':memory:' });
    const { batches, dispatcher } = recorder();
    const wrapped = dispatchingStorage(storage, dispatcher);
    afterCommit(wrapped, event('A'));
    await storage.transaction((tx) => {
      afterCommit(tx, event('B'));
      return Promise.resolve();
    });
    expect(batches).toEqual([]);
    await storage.close();
  });

  it('runs commit actions after the commit, never after a rollback, at once outside one', async () => {
    const storage = createSqliteStorage({ filename: ':memory:' });
    const wrapped = dispatchingStorage(storage, recorder().dispatcher);
    const ran: string[] = [];
    await wrapped.transaction((tx) => {
      onCommit(tx, () => ran.push('committed'));
      expect(ran).toEqual([]);
      return Promise.resolve();
    });
    await expect(
      wrapped.transaction((tx) => {
        onCommit(tx, () => ran.push('rolled back'));
        return Promise.reject(new Error('refused'));
      }),
    ).rejects.toThrow('refused');
    onCommit(wrapped, () => ran.push('own statement'));
    expect(ran).toEqual(['committed', 'own statement']);
    await storage.close();
  });

  it('publishes what a statement of the storage itself wrote at once, in transactions after commit', async () => {
    const storage = createSqliteStorage({ filename: ':memory:' });
    const { batches, dispatcher } = recorder();
    const wrapped = dispatchingStorage(storage, dispatcher);
    afterWrite(wrapped, event('A'));
    expect(batches.map((batch) => batch.map((e) => e.type))).toEqual([['A']]);
    await wrapped.transaction((tx) => {
      afterWrite(tx, event('B'));
      expect(batches).toHaveLength(1);
      return Promise.resolve();
    });
    await expect(
      wrapped.transaction((tx) => {
        afterWrite(tx, event('C'));
        return Promise.reject(new Error('refused'));
      }),
    ).rejects.toThrow('refused');
    // Repositories outside a dispatching storage announce nothing.
    afterWrite(storage, event('D'));
    expect(batches.map((batch) => batch.map((e) => e.type))).toEqual([['A'], ['B']]);
    await storage.close();
  });
});
