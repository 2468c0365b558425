/**
 * One server per test file and driver, and what each test seeds on it.
 *
 * A server costs a `createApp` (routes, migrations or a template copy, the gateway); a guild, an
 * app or a person costs a few inserts. So the fixtures start their server once, before the first
 * test of the `describe` block they are called in (a file's block per driver, inside
 * `describeDrivers`), and each test seeds its own world with names no other test of the worker
 * has ({@link uniqueName}): tests sharing a server stay independent, and any of them runs alone.
 *
 * A fixture whose tests keep to that may go further and share its server with the worker's other
 * files (`share`, {@link sharedServer}): the files of a worker run one after another in one
 * process, so the next file of the same fixture, driver and settings borrows the server the last
 * one started, and its clock ({@link sharedClock}).
 *
 * @module
 */
import { deconstructSnowflake, makeSnowflake } from '@guildhall/protocol';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { manualClock } from '../../src/domain/clock.js';
import { startTestServer, type TestServer, type TestServerOptions } from './testServer.js';

let named = 0;

/**
 * `base` with a number no other call in this worker gave: a username, email local part or name
 * that cannot collide with another test's on a shared server (`owner` → `owner_12`).
 */
export function uniqueName(base: string): string {
  named += 1;
  return `${base}_${String(named)}`;
}

/**
 * What `auth.register` takes for a new person named after `name` (made unique: uniqueName), with
 * the password the tests log in with.
 */
export function registration(name: string) {
  const username = uniqueName(name);
  return { email: `${username}@example.test`, username, password: 'correct horse battery' };
}

export interface FileServer {
  /** The server of this file and driver, started in `beforeAll`. */
  readonly server: TestServer;
}

/**
 * Starts a server with `options` before the enclosing block's first test (for its hooks and
 * tests) and closes it after its last. With `share` (a fixture's name), the server is the
 * worker's for that name and these options ({@link sharedServer}): borrowed, and given back.
 */
export function useFileServer(
  options: TestServerOptions | (() => TestServerOptions),
  share?: string,
): FileServer {
  let server: TestServer | undefined;
  let giveBack: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    const settings = typeof options === 'function' ? options() : options;
    ({ server, giveBack } =
      share === undefined ? await ownServer(settings) : await sharedServer(share, settings));
  });
  afterAll(async () => {
    const done = giveBack;
    server = undefined;
    giveBack = undefined;
    await done?.();
  });
  return {
    get server() {
      if (server === undefined) throw new Error('no file server: outside its describe block');
      return server;
    },
  };
}

/**
 * Makes `make()` before each test of the enclosing block and `dispose` of it after; the getter
 * returns this test's value.
 */
export function perTest<T>(
  make: () => Promise<T>,
  dispose?: (value: T) => void | Promise<void>,
): () => T {
  let value: { current: T } | undefined;
  beforeEach(async () => {
    value = { current: await make() };
  });
  afterEach(async () => {
    const ended = value;
    value = undefined;
    if (ended !== undefined) await dispose?.(ended.current);
  });
  return () => {
    if (value === undefined) throw new Error('no per-test value: outside a test');
    return value.current;
  };
}

/**
 * Shared servers a worker keeps open for its next files, by driver; beyond them the least recently
 * used closes. A worker's files use a dozen settings, so fewer would close servers that a later
 * file asks for again. PostgreSQL's are fewer: each holds up to 5 of the database's 100
 * connections while in use (pg lets an idle connection go after 10 s).
 */
const SHARED_SERVERS_KEPT = { sqlite: 8, postgres: 3 } as const;

interface SharedEntry {
  server: Promise<TestServer>;
  driver: keyof typeof SHARED_SERVERS_KEPT;
  /** The settings that are not data (a clock, timers): the same objects for every borrower. */
  objects: Record<string, unknown>;
  /** Blocks using it now (a file's nested blocks may share one). */
  borrowers: number;
  lastUsed: number;
}

const sharedServers = new Map<string, SharedEntry>();
let sharedUses = 0;

/** Whether a value is data only (JSON), so that equal settings make an equal server. */
function plainData(value: unknown): boolean {
  if (value === null || ['string', 'number', 'boolean'].includes(typeof value)) return true;
  if (Array.isArray(value)) return value.every(plainData);
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return false;
  return Object.values(value as Record<string, unknown>).every(
    (each) => each === undefined || plainData(each),
  );
}

/** A server of the file's own, closed when it is given back. */
async function ownServer(
  options: TestServerOptions,
): Promise<{ server: TestServer; giveBack: () => Promise<void> }> {
  const server = await startTestServer(options);
  return { server, giveBack: () => server.close() };
}

/**
 * The worker's server for `name` and these settings, started by the first file that asks and
 * borrowed by the next ones, and the function that gives it back after the file's block. Settings
 * that are data make the key; any other (a clock, timers, a logger) is shared only if it is the
 * same object, made once per worker ({@link workerValue}): else the file gets a server of its own.
 */
export async function sharedServer(
  name: string,
  options: TestServerOptions,
): Promise<{ server: TestServer; giveBack: () => Promise<void> }> {
  const data: Record<string, unknown> = {};
  const objects: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(options)) {
    if (plainData(value)) data[field] = value;
    else objects[field] = value;
  }
  const key = `${name} ${JSON.stringify(data)}`;
  let entry = sharedServers.get(key);
  const same = (e: SharedEntry) =>
    Object.keys({ ...e.objects, ...objects }).every((f) => e.objects[f] === objects[f]);
  // Objects of this file's own (its timers, say): a server of its own too.
  if (entry !== undefined && !same(entry)) return ownServer(options);
  if (entry === undefined) {
    const driver = options.storage ?? 'sqlite';
    entry = { server: startTestServer(options), driver, objects, borrowers: 0, lastUsed: 0 };
    sharedServers.set(key, entry);
  }
  entry.borrowers += 1;
  entry.lastUsed = ++sharedUses;
  const borrowed = entry;
  let server: TestServer;
  try {
    server = await borrowed.server;
  } catch (err) {
    sharedServers.delete(key);
    throw err;
  }
  return {
    server,
    giveBack: async () => {
      borrowed.borrowers -= 1;
      await closeLeastUsed();
    },
  };
}

/** Closes the idle shared servers beyond the few kept of each driver, least recently used first. */
async function closeLeastUsed(): Promise<void> {
  for (const [driver, kept] of Object.entries(SHARED_SERVERS_KEPT)) {
    const ofDriver = [...sharedServers].filter(([, entry]) => entry.driver === driver);
    const idle = ofDriver
      .filter(([, entry]) => entry.borrowers === 0)
      .sort(([, a], [, b]) => a.lastUsed - b.lastUsed);
    for (const [key, entry] of idle.slice(0, Math.max(0, ofDriver.length - kept))) {
      sharedServers.delete(key);
      await (await entry.server).close();
    }
  }
}

const workerValues = new Map<string, unknown>();

/**
 * What `make` makes, once per worker and `key`: the objects a shared server is started with (its
 * clock, its timers), the same for every file that borrows it.
 */
export function workerValue<T>(key: string, make: () => T): T {
  if (!workerValues.has(key)) workerValues.set(key, make());
  return workerValues.get(key) as T;
}

/**
 * The worker's manual clock for `key` (a fixture and driver), made at `startMs` by the first file
 * that asks: a shared server keeps one clock, which the next file's tests move on from.
 */
export function sharedClock(key: string, startMs: number): ReturnType<typeof manualClock> {
  return workerValue(`clock ${key}`, () => manualClock(startMs));
}

/** How far a shared clock moves between tests: past every rate limit window of the API. */
const BETWEEN_TESTS_MS = 60 * 60_000;

/**
 * Moves a shared server's manual clock to where the next test starts: an hour past where the
 * tests before it left the clock, and not before `earliest`. So the rate limit windows of earlier
 * tests (per address, like the token endpoint's) have passed, and the ids the server minted
 * before are older than the clock: ids never go back in time, so a clock set back would mint
 * ids dated after it, and tests that read an age from an id (nonce windows, bulk deletes, a ban's
 * delete_message_seconds) would see the wrong one. For tests that assert no absolute time.
 */
export function advanceToNextTest(
  clock: { now(): number; set(ms: number): void },
  earliest: number,
): void {
  clock.set(Math.max(clock.now() + BETWEEN_TESTS_MS, earliest));
}

/** A file's server on the worker's manual clock ({@link useClockedServer}). */
export interface ClockedServer extends FileServer {
  /** The worker's clock of the server: tests move it forward (advance, set later), never back. */
  readonly clock: ReturnType<typeof manualClock>;
  /** Where the clock stood when this test began: the test's "now" for the times it expects. */
  readonly startedAt: number;
}

/**
 * {@link useFileServer} on the worker's manual clock for `share` and the driver
 * ({@link sharedClock}), so that the worker's files of the same settings borrow one server. Before
 * the file and before each test the clock moves on ({@link advanceToNextTest}) to no earlier than
 * `era.from`: tests read their start from `startedAt`, not from a fixed date. The API changes at
 * some dates (a permission split, a rule that starts on a day): `era.until` is the first of those
 * after `era.from` that the file's tests could meet, and a test that would begin or end past it
 * fails rather than silently test the other side of it. A test that needs a time before the clock
 * (the day before a split) cannot run on a shared server.
 */
export function useClockedServer(
  options: Omit<TestServerOptions, 'clock'>,
  share: string,
  era: { from: number; until?: number },
): ClockedServer {
  const clock = sharedClock(`${share}:${options.storage ?? 'sqlite'}`, era.from);
  const file = useFileServer({ ...options, clock }, share);
  const checkEra = (when: string) => {
    if (era.until !== undefined && clock.now() >= era.until) {
      throw new Error(
        `the worker's ${share} clock is past ${new Date(era.until).toISOString()} ${when}: ` +
          'its files have moved it further than their tests may go',
      );
    }
  };
  let startedAt: number | undefined;
  // What the file's own beforeAll seeds is made no earlier either.
  beforeAll(() => {
    advanceToNextTest(clock, era.from);
    checkEra('as this file starts');
  });
  beforeEach(() => {
    advanceToNextTest(clock, era.from);
    checkEra('as this test starts');
    startedAt = clock.now();
  });
  afterEach(() => {
    startedAt = undefined;
    checkEra('after this test');
  });
  return {
    get server() {
      return file.server;
    },
    clock,
    get startedAt() {
      if (startedAt === undefined) throw new Error('no test start: outside a test');
      return startedAt;
    },
  };
}

let fabricated = 0;

/**
 * An id a test makes for a row it stores itself: dated as `after` (an id of the server's, so
 * it sorts with what was made then), on worker and process 31, which no test server mints with,
 * and unique in this worker whatever the server mints (the file's tests share it).
 */
export function fabricatedId(after: string): string {
  fabricated += 1;
  return makeSnowflake({
    timestampMs: deconstructSnowflake(after).timestampMs + Math.floor(fabricated / 4096),
    workerId: 31,
    processId: 31,
    increment: fabricated % 4096,
  });
}
