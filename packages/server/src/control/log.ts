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

/** The log, and `record` for the parts that write it. */
export interface ControlLogWriter extends ControlLog {
  record(entry: LogRecord): void;
}

/** The key of a request made without a token. */
const ANONYMOUS = '';

export function createControlLog(deps: { clock: Clock; capacity?: number }): ControlLogWriter {
  const capacity = deps.capacity ?? DEFAULT_LOG_CAPACITY;
  const byUser = new Map<string, LogEntry[]>();
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
    record(record) {
      const entry = { ...record, seq: ++seq, atMs: deps.clock.now() } as LogEntry;
      const key = entry.userId ?? ANONYMOUS;
      let kept = byUser.get(key);
      if (kept === undefined) byUser.set(key, (kept = []));
      kept.push(entry);
      // Trimmed in halves, so an entry costs no shift of the whole list.
      if (kept.length >= 2 * capacity) kept.splice(0, kept.length - capacity);
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
        for (const entry of kept.slice(-capacity)) if (matches(entry, filter)) found.push(entry);
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
