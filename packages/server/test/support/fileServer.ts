/**
 * One server per test file and driver, and what each test seeds on it.
 *
 * A server costs a `createApp` (routes, migrations or a template copy, the gateway); a guild, an
 * app or a person costs a few inserts. So the fixtures start their server once, before the first
 * test of the `describe` block they are called in (a file's block per driver, inside
 * `describeDrivers`), and each test seeds its own world with names no other test of the worker
 * has ({@link uniqueName}): tests sharing a server stay independent, and any of them runs alone.
 *
 * @module
 */
import { deconstructSnowflake, makeSnowflake } from '@guildhall/protocol';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
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
 * tests) and closes it after its last.
 */
export function useFileServer(options: TestServerOptions | (() => TestServerOptions)): FileServer {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(typeof options === 'function' ? options() : options);
  });
  afterAll(async () => {
    const ended = server;
    server = undefined;
    await ended?.close();
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
