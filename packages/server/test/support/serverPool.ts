/**
 * The test servers a worker shares between its test files: one per driver and set of options that
 * make servers interchangeable, handed to one file at a time (a worker runs its files one after
 * another) and never emptied.
 *
 * Which options can be shared: plain data (`storage`, `listen`, `config`, `gateway`,
 * `defaultRouteBucket`, `invalidRequestLimit`, `timedSweep: false`), compared by value, and a
 * `clock`. Anything else (timers, a logger, a bus, an exporter, hooks, a database or data folder,
 * a process id, admin commands) carries identity: such a server is the file's own ({@link poolKey}
 * answers null). A file whose tests read what the whole server holds opts out with
 * `useFileServer(options, { shared: false })` (fileServer.ts).
 *
 * A shared server's clock is the holder's: it reads the clock of the file that holds it, and
 * keeps the last time it read between files. Ids never go back in time and rate-limit windows are
 * dated, so a server is handed only to a file whose clock stands at or after the latest time the
 * server read, and that file must not set its clock back before where it stood when the server
 * was handed out ({@link PooledServer.release} reports it if it did: such a file opts out).
 *
 * The servers close when the worker stops (poolEnvironment.ts calls {@link closePooledServers}):
 * vitest stops a worker at the end of its project, waits for the environment's teardown, and
 * then kills the process. PostgreSQL schemas go back to postgres.ts's pool as the server closes;
 * globalSetup.ts drops whatever is left of the run's schemas.
 *
 * @module
 */
import { setTimeout } from 'node:timers/promises';
import type { Clock } from '../../src/domain/clock.js';
import { startTestServer, type TestServer, type TestServerOptions } from './testServer.js';

/** The options whose values a shared server is chosen by: plain data, compared by value. */
const PLAIN_OPTIONS = new Set([
  'storage',
  'listen',
  'config',
  'gateway',
  'defaultRouteBucket',
  'invalidRequestLimit',
  // Only as false (no sweep): its timers are identity.
  'timedSweep',
]);

/** Where a shared server's clock stands, and whose clock it reads. */
interface SharedTime {
  /** The clock of the file holding the server; null between files. */
  holder: Clock | null;
  /** The latest time the server read from its clock (ids are dated up to here). */
  highWater: number;
  /** The holder's time when the server was handed to it: its clock must not go before. */
  floor: number;
  /** The earliest time the holder's clock read below {@link floor}, if it did. */
  wentBack: number | null;
}

interface Entry {
  readonly key: string;
  readonly server: TestServer;
  readonly time: SharedTime;
}

/** How long the worker's end waits for its shared servers to close. */
const CLOSE_WAIT_MS = 5_000;

/** The worker's shared servers not held by a file, by key. */
const idle = new Map<string, Entry[]>();
/** Every shared server the worker started, held or not. */
const started = new Set<Entry>();

/** `value` as canonical JSON (keys sorted), or null when it is not plain data. */
function canonical(value: unknown): string | null {
  if (value === null || typeof value === 'boolean' || typeof value === 'string')
    return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : null;
  if (Array.isArray(value)) {
    const items = value.map(canonical);
    return items.includes(null) ? null : `[${items.join(',')}]`;
  }
  if (typeof value !== 'object' || Object.getPrototypeOf(value) !== Object.prototype) return null;
  const fields: string[] = [];
  for (const [name, field] of Object.entries(value).sort(([a], [b]) => a.localeCompare(b))) {
    if (field === undefined) continue;
    const text = canonical(field);
    if (text === null) return null;
    fields.push(`${JSON.stringify(name)}:${text}`);
  }
  return `{${fields.join(',')}}`;
}

/**
 * What makes servers of `options` interchangeable (the driver, the plain options by value, and
 * whether a clock is given), or null when an option carries identity and the server is the
 * file's own.
 */
export function poolKey(options: TestServerOptions): string | null {
  const plain: Record<string, unknown> = { storage: options.storage ?? 'sqlite' };
  for (const [name, value] of Object.entries(options)) {
    if (value === undefined || name === 'storage') continue;
    if (name === 'clock') continue;
    if (!PLAIN_OPTIONS.has(name)) return null;
    plain[name] = name === 'listen' ? value === true : value;
  }
  const text = canonical(plain);
  return text === null ? null : `${options.clock === undefined ? 'system' : 'manual'} ${text}`;
}

/** A shared server as one file holds it. */
export interface PooledServer {
  readonly server: TestServer;
  /** Hands the server back for the worker's next file; rejects if the clock went back. */
  release(): Promise<void>;
}

/** The clock a shared server reads: the holder's, or the last time read between holders. */
function delegatingClock(time: SharedTime): Clock {
  return {
    now() {
      if (time.holder === null) return time.highWater;
      const now = time.holder.now();
      if (now < time.floor && time.wentBack === null) time.wentBack = now;
      if (now > time.highWater) time.highWater = now;
      return now;
    },
  };
}

/** Hands a free server of `key` to `clock`'s file: the one whose clock read latest, not after now. */
function takeIdle(key: string, clock: Clock | undefined): Entry | undefined {
  const free = idle.get(key) ?? [];
  const now = clock?.now() ?? Infinity;
  let best: number | undefined;
  for (const [index, entry] of free.entries()) {
    if (entry.time.highWater > now) continue;
    if (best === undefined || entry.time.highWater > (free[best]?.time.highWater ?? -Infinity))
      best = index;
  }
  return best === undefined ? undefined : free.splice(best, 1)[0];
}

/**
 * A shared server for `options` (see the module comment), started if none is free, or null when
 * the options carry identity.
 */
export async function acquirePooledServer(
  options: TestServerOptions,
): Promise<PooledServer | null> {
  const key = poolKey(options);
  if (key === null) return null;
  const { clock } = options;
  const floor = clock?.now() ?? 0;
  let entry = takeIdle(key, clock);
  if (entry === undefined) {
    const time: SharedTime = { holder: clock ?? null, highWater: floor, floor, wentBack: null };
    const server = await startTestServer({
      ...options,
      ...(clock === undefined ? {} : { clock: delegatingClock(time) }),
    });
    entry = { key, server, time };
    started.add(entry);
  }
  const held = entry;
  Object.assign(held.time, { holder: clock ?? null, floor, wentBack: null });
  return {
    server: held.server,
    async release() {
      const { wentBack } = held.time;
      held.time.holder = null;
      if (wentBack !== null) {
        // Ids may be dated after the clock now: the server is not handed out again.
        started.delete(held);
        await held.server.close();
        throw new Error(
          `the clock of a shared test server went back to ${new Date(wentBack).toISOString()}, before ${new Date(floor).toISOString()} where it stood when the file took the server: pass { shared: false } to useFileServer`,
        );
      }
      idle.set(held.key, [...(idle.get(held.key) ?? []), held]);
    },
  };
}

/** Closes the worker's shared servers (at the worker's end). */
export async function closePooledServers(): Promise<void> {
  const closing = [...started];
  started.clear();
  idle.clear();
  const closed = Promise.allSettled(closing.map((entry) => entry.server.close()));
  // A close that hangs must not hold the worker: vitest kills it once the teardown returns.
  await Promise.race([closed, setTimeout(CLOSE_WAIT_MS, undefined, { ref: false })]);
}

/** Where poolEnvironment.ts finds {@link closePooledServers}: it loads modules apart from tests. */
export const CLOSE_POOLED_SERVERS = Symbol.for('guildhall.test.closePooledServers');

(globalThis as Record<symbol, unknown>)[CLOSE_POOLED_SERVERS] = closePooledServers;
