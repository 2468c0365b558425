/**
 * Waiting on the platform's log of what each bot (and person) did and was sent (`app.control.log`:
 * HTTP requests with route, status and bodies, gateway commands, dispatches), with a timeout whose
 * error lists what did arrive.
 *
 * @module
 */
import type { App } from '@guildhall/server';
import { WaitTimeoutError } from './errors.js';
import { DEFAULT_WAIT_TIMEOUT_MS, type WaitOptions } from './eventLog.js';

/** The platform's log (`app.control.log`). */
export type ControlLog = App['control']['log'];
/** One line of it: an HTTP request, a gateway command or a dispatch. */
export type LogEntry = ReturnType<ControlLog['entries']>[number];
/** What {@link ControlLog.entries} filters on. */
export type LogFilter = NonNullable<Parameters<ControlLog['entries']>[0]>;

/** Lines a timeout's message lists at most (the newest). */
const DESCRIBED_MAX = 20;

/** One line for a timeout's message. */
export function describeEntry(entry: LogEntry): string {
  switch (entry.kind) {
    case 'http':
      return `${entry.method} ${entry.path} → ${String(entry.status)}`;
    case 'gatewayCommand':
      return `gateway op ${String(entry.op)}`;
    case 'dispatch':
      return `dispatch ${entry.t}`;
  }
}

function matchesFilter(entry: LogEntry, filter: LogFilter): boolean {
  if (filter.kind !== undefined && entry.kind !== filter.kind) return false;
  if (filter.since !== undefined && entry.seq <= filter.since) return false;
  if (filter.botId !== undefined)
    return entry.userId === filter.botId || entry.applicationId === filter.botId;
  return true;
}

/**
 * The first log entry matching `filter` and `match` among those kept (after `options.since`, a
 * `seq`), else the next to come within `timeoutMs` (real time).
 */
export function waitForLogEntry(
  log: ControlLog,
  query: { filter?: LogFilter; match?: (entry: LogEntry) => boolean; what?: string },
  options: WaitOptions = {},
): Promise<LogEntry> {
  const filter = {
    ...query.filter,
    ...(options.since === undefined ? {} : { since: options.since }),
  };
  const match = query.match ?? (() => true);
  const timeoutMs = options.timeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const found = log.entries(filter).find(match);
  if (found !== undefined) return Promise.resolve(found);
  const startSeq = filter.since ?? -1;
  return new Promise<LogEntry>((resolve, reject) => {
    const unsubscribe = log.subscribe((entry) => {
      if (!matchesFilter(entry, filter) || !match(entry)) return;
      clearTimeout(timer);
      unsubscribe();
      resolve(entry);
    });
    const timer = setTimeout(() => {
      unsubscribe();
      const arrived = log
        .entries({ ...filter, since: startSeq })
        .map(describeEntry)
        .slice(-DESCRIBED_MAX);
      reject(new WaitTimeoutError(query.what ?? 'matching log entry', timeoutMs, arrived));
    }, timeoutMs);
  });
}

/**
 * Waits until a bot's session is ready again: its READY, then a GUILD_CREATE for each guild the
 * READY named (what a client library waits for before it calls itself ready).
 */
export async function waitForBotReady(
  log: ControlLog,
  botId: string,
  options: WaitOptions = {},
): Promise<void> {
  const ready = await waitForLogEntry(
    log,
    {
      filter: { botId, kind: 'dispatch' },
      match: (entry) => entry.kind === 'dispatch' && entry.t === 'READY',
      what: `READY of bot ${botId}`,
    },
    options,
  );
  if (ready.kind !== 'dispatch') return;
  // The log keeps large payloads short: GUILD_CREATEs are counted, not named.
  const expected = (ready.d as { guilds?: unknown[] } | null)?.guilds?.length ?? 0;
  let seen = 0;
  if (expected === 0) return;
  await waitForLogEntry(
    log,
    {
      filter: { botId, kind: 'dispatch', since: ready.seq },
      match: (entry) => {
        if (entry.kind !== 'dispatch' || entry.t !== 'GUILD_CREATE') return false;
        if (entry.sessionId === ready.sessionId) seen += 1;
        return seen >= expected;
      },
      what: `the ${String(expected)} GUILD_CREATEs of bot ${botId} after its READY`,
    },
    options,
  );
}
