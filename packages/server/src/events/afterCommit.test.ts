import { describe, expect, it } from 'vitest';
import {
  TEST_DATABASE_URL,
  dropSchema,
  postgresAvailable,
  uniqueSchema,
} from '../../test/support/postgres.js';
import type { Repositories, Storage } from '../storage/index.js';
import { createPostgresStorage } from '../storage/postgres/index.js';
import { createSqliteStorage } from '../storage/sqlite/index.js';
import {
  afterCommit,
  afterCommitTask,
  afterWrite,
  dispatchingStorage,
  onCommit,
} from './afterCommit.js';
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

/**
 * A dispatch told apart by `marker`: GUILD_INTEGRATIONS_UPDATE, whose payload is one string,
 * carries it as its `guild_id`, so a test can follow each through the batches.
 */
const event = (marker: string): Dispatch => ({
  type: 'GUILD_INTEGRATIONS_UPDATE',
  guildId: '1',
  data: { guild_id: marker },
});

/** The marker `event` gave a dispatch. */
const markerOf = (e: Dispatch): string =>
  e.type === 'GUILD_INTEGRATIONS_UPDATE' ? e.data.guild_id : e.type;

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
    expect(batches.map((batch) => batch.map(markerOf))).toEqual([['A', 'B', 'C']]);
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
    expect(batches.map((batch) => batch.map(markerOf))).toEqual([['A']]);
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
    expect(batches.map((batch) => batch.map(markerOf))).toEqual([['A'], ['B']]);
    await storage.close();
  });

  it("says what happens after a commit through each repositories' own commit scope", async () => {
    const storage = createSqliteStorage({ filename: ':memory:' });
    const { batches, dispatcher } = recorder();
    const wrapped = dispatchingStorage(storage, dispatcher);
    const ran: string[] = [];
    const task = (name: string) => () => {
      ran.push(name);
      return Promise.resolve();
    };
    // A plain storage, in a transaction or not: nothing announced, no task, actions at once.
    storage.commit.dispatch(event('plain'));
    storage.commit.task(task('plain task'));
    storage.commit.action(() => ran.push('plain action'));
    await storage.transaction((tx) => {
      tx.commit.dispatch(event('plain tx'));
      tx.commit.task(task('plain tx task'));
      tx.commit.action(() => ran.push('plain tx action'));
      return Promise.resolve();
    });
    // The dispatching storage's own: published and run at once, no task.
    wrapped.commit.dispatch(event('own'));
    wrapped.commit.task(task('own task'));
    wrapped.commit.action(() => ran.push('own action'));
    expect(batches.map((batch) => batch.map(markerOf))).toEqual([['own']]);
    // Its transactions: kept until the commit, then dispatches, actions, tasks.
    await wrapped.transaction((tx) => {
      tx.commit.task(task('tx task'));
      tx.commit.action(() => ran.push('tx action'));
      tx.commit.dispatch([event('tx 1'), event('tx 2')]);
      expect(batches).toHaveLength(1);
      return Promise.resolve();
    });
    expect(batches.map((batch) => batch.map(markerOf))).toEqual([['own'], ['tx 1', 'tx 2']]);
    expect(ran).toEqual(['plain action', 'plain tx action', 'own action', 'tx action', 'tx task']);
    await storage.close();
  });
});

/** A fresh storage per driver, and how to dispose of it. */
const drivers: {
  name: string;
  skip: boolean;
  open: () => Promise<[Storage, () => Promise<void>]>;
}[] = [
  {
    name: 'sqlite',
    skip: false,
    open: () => {
      const storage = createSqliteStorage({ filename: ':memory:' });
      return Promise.resolve([storage, () => storage.close()]);
    },
  },
  {
    name: 'postgres',
    skip: !postgresAvailable,
    open: async () => {
      const schema = uniqueSchema('aftercommit');
      const storage = await createPostgresStorage({ connectionString: TEST_DATABASE_URL, schema });
      return [
        storage,
        async () => {
          await storage.close();
          await dropSchema(schema);
        },
      ];
    },
  },
];

for (const driver of drivers) {
  describe.skipIf(driver.skip)(`afterCommit in group commits (${driver.name})`, () => {
    let nextId = 2_000_000_000_000_000n;
    const createUser = (tx: Repositories, username: string) =>
      tx.users.create({ id: String((nextId += 1n)), username, createdAt: 0, bot: true });

    it("publishes a member's dispatches once its batch committed, a failed member's never", async () => {
      const [storage, dispose] = await driver.open();
      try {
        const { batches, dispatcher } = recorder();
        const wrapped = dispatchingStorage(storage, dispatcher);
        const actions: string[] = [];
        const member = (name: string, fail: boolean) =>
          wrapped.groupTransaction(async (tx) => {
            await createUser(tx, name);
            afterCommit(tx, event(name));
            onCommit(tx, () => actions.push(name));
            // Nothing of its own leaves before the commit (another batch's may have).
            expect(batches.flat().map(markerOf)).not.toContain(name);
            if (fail) throw new Error(`${name} refused`);
          });
        const results = await Promise.allSettled([
          member('A', false),
          member('B', true),
          member('C', false),
        ]);
        expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
        // B's failure rolled back the first run of its neighbours: each announced once all the
        // same, from the run that committed.
        const published = batches.flat().map(markerOf);
        expect(published.sort()).toEqual(['A', 'C']);
        expect(actions.sort()).toEqual(['A', 'C']);
      } finally {
        await dispose();
      }
    });

    it('runs commit tasks only after the batch committed', async () => {
      const [storage, dispose] = await driver.open();
      try {
        const wrapped = dispatchingStorage(storage, recorder().dispatcher);
        const seen: { committed: boolean; visible: boolean }[] = [];
        const before = storage.groupCommitStats().batches;
        await Promise.all(
          ['task_1', 'task_2'].map((name) =>
            wrapped.groupTransaction(async (tx) => {
              const user = await createUser(tx, name);
              afterCommitTask(tx, async (outside) => {
                seen.push({
                  committed: storage.groupCommitStats().batches > before,
                  visible: (await outside.users.findById(user.id)) !== null,
                });
              });
            }),
          ),
        );
        expect(seen).toEqual([
          { committed: true, visible: true },
          { committed: true, visible: true },
        ]);
      } finally {
        await dispose();
      }
    });
  });
}
