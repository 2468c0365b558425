/**
 * @module control/log: what each bot (and person) did and was sent, for a test's assertions: the
 * last entries per user, in memory, in the order they happened.
 */
import type { Clock } from '../domain/clock.js';
import type { ControlLog, LogEntry, LogFilter } from './types.js';

/** Entries kept per user unless the app says otherwise. */
export const DEFAULT_LOG_CAPACITY = 1000;

/** What a part of the platform records: an entry without its seq and time. */
export type LogRecord = LogEntry extends infer E
  ? E extends LogEntry
    ? Omit<E, 'seq' | 'atMs'>
    : never
  : never;

/**
 * Finishes an entry's costly fields (an HTTP entry's bodies, parsed) before anyone reads it: the
 * log is written on every request and read by a few tests.
 */
export type LogEntryFinisher = (entry: LogEntry) => void;

/** The log, and `record` for the parts that write it. */
export interface ControlLogWriter extends ControlLog {
  /**
   * Appends `entry` (the object is kept and completed, not copied); `finish`, if given, runs once
   * before the entry is first handed out (`entries`, a listener).
   */
  record(entry: LogRecord, finish?: LogEntryFinisher): void;
}

/** Where an entry keeps its finisher until it is first read. */
const UNFINISHED = Symbol('unfinished');
type Kept = LogEntry & { [UNFINISHED]?: LogEntryFinisher | undefined };

/** The entry as readers see it: finished, once. */
function finished(entry: Kept): LogEntry {
  const finish = entry[UNFINISHED];
  if (finish !== undefined) {
    entry[UNFINISHED] = undefined;
    finish(entry);
  }
  return entry;
}

/** The key of a request made without a token. */
const ANONYMOUS = '';

export function createControlLog(deps: { clock: Clock; capacity?: number }): ControlLogWriter {
  const capacity = deps.capacity ?? DEFAULT_LOG_CAPACITY;
  const byUser = new Map<string, Kept[]>();
  const listeners = new Set<(entry: LogEntry) => void>();
  let seq = 0;

  const matches = (entry: LogEntry, filter: LogFilter) =>
    (filter.botId === undefined ||
      entry.userId === filter.botId ||
      entry.applicationId === filter.botId) &&
    (filter.kind === undefined || entry.kind === filter.kind) &&
    (filter.since === undefined || entry.seq > filter.since);

  return {
    capacity,
    record(record, finish) {
      // Completed in place: a spread into a new literal costs a copy per request.
      const stamped = record as LogRecord & { seq: number; atMs: number };
      stamped.seq = ++seq;
      stamped.atMs = deps.clock.now();
      const entry = stamped as Kept;
      if (finish !== undefined) entry[UNFINISHED] = finish;
      const key = entry.userId ?? ANONYMOUS;
      let kept = byUser.get(key);
      if (kept === undefined) byUser.set(key, (kept = []));
      kept.push(entry);
      // Trimmed in halves, so an entry costs no shift of the whole list.
      if (kept.length >= 2 * capacity) kept.splice(0, kept.length - capacity);
      if (listeners.size > 0) finished(entry);
      for (const listener of listeners) {
        try {
          listener(entry);
        } catch {
          // A listener's failure is its own; the platform goes on.
        }
      }
    },
    entries(filter = {}) {
      const found: LogEntry[] = [];
      for (const kept of byUser.values()) {
        for (const entry of kept.slice(-capacity)) {
          if (matches(entry, filter)) found.push(finished(entry));
        }
      }
      found.sort((a, b) => a.seq - b.seq);
      return filter.limit === undefined ? found : found.slice(-filter.limit);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    clear() {
      byUser.clear();
    },
  };
}
