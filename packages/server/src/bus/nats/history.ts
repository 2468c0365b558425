/**
 * @module bus/nats/history: the bus's history in a JetStream stream. The stream captures what is
 * published on the kept subjects (plain publishes: publishing costs no acknowledgement), keeps
 * it for `keepMs`, and is read back per subject through short-lived consumers.
 */
import {
  AckPolicy,
  DeliverPolicy,
  DiscardPolicy,
  RetentionPolicy,
  StorageType,
  nanos,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
  type StreamConfig,
} from 'nats';
import { decodeEvent } from '../codec.js';
import { assertPublishSubject, assertSubscribeSubject, subjectMatches } from '../subjects.js';
import type { BusErrorHandler, BusEvent, EventHistory, KeptEvent } from '../types.js';

/**
 * A NATS message as the bus delivers it: its subject without the deployment's prefix and its
 * event; null (reported) when the text is not a bus event. Live and kept messages alike.
 */
export function decodeDelivered(
  msg: { subject: string; string(): string },
  subjectPrefix: string,
  report: BusErrorHandler,
): { subject: string; event: BusEvent } | null {
  const subject = msg.subject.slice(subjectPrefix.length);
  try {
    return { subject, event: decodeEvent(msg.string()) };
  } catch (decodeErr) {
    report(decodeErr, { subject });
    return null;
  }
}

export interface NatsHistoryOptions {
  /** Subject patterns (without the bus's prefix) whose events are kept, e.g. `dispatch.>`. */
  subjects: readonly string[];
  /** How long an event is kept, ms. */
  keepMs: number;
  /** The JetStream stream's name; by default derived from the subject prefix. */
  stream?: string;
}

/** JetStream's error code for a stream that exists with another configuration. */
const STREAM_NAME_IN_USE = 10058;
/** Subjects read at once by one read(). */
const READ_CONCURRENCY = 8;
/** Messages asked for per fetch. */
const FETCH_BATCH = 1000;
/** How long one fetch waits for messages the consumer counted as pending. */
const FETCH_EXPIRES_MS = 2000;
/** A reading consumer the server removes by itself if its reader vanished. */
const CONSUMER_IDLE_MS = 30_000;

/**
 * The stream name of a subject prefix: its tokens joined by `_`, then `_history` (`guildhall.`
 * keeps its history in `guildhall_history`). Characters a stream name may not hold become `_`.
 */
export function historyStreamName(subjectPrefix: string): string {
  const tokens = subjectPrefix.split('.').filter((token) => token !== '');
  return [...tokens, 'history'].join('_').replace(/[^\w-]/g, '_');
}

/** An error the JetStream API answered, by its code. */
function apiErrorCode(err: unknown): number | undefined {
  if (typeof err !== 'object' || err === null || !('api_error' in err)) return undefined;
  const apiError = (err as { api_error?: { err_code?: number } }).api_error;
  return apiError?.err_code;
}

/**
 * Creates the stream, or brings an existing one to this configuration (another keep time, say).
 * @throws Error saying why when the server has no JetStream or another stream holds the subjects.
 */
async function ensureStream(
  jsm: JetStreamManager,
  config: Partial<StreamConfig> & { name: string },
): Promise<void> {
  try {
    await jsm.streams.add(config);
  } catch (err) {
    if (apiErrorCode(err) !== STREAM_NAME_IN_USE) throw err;
    await jsm.streams.update(config.name, config);
  }
}

/** Runs `task` over every item, at most `limit` at a time. */
async function eachLimited<T, R>(
  items: readonly T[],
  limit: number,
  task: (item: T) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await task(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/**
 * Opens the history of a NATS bus: makes sure its stream exists with this configuration, and
 * returns the reader. `ensureOpen` throws `BusClosedError` once the bus is closed.
 */
export async function openNatsHistory(input: {
  nc: NatsConnection;
  subjectPrefix: string;
  options: NatsHistoryOptions;
  report: BusErrorHandler;
  ensureOpen: () => void;
}): Promise<EventHistory> {
  const { nc, subjectPrefix, options, report, ensureOpen } = input;
  const patterns = [...options.subjects];
  for (const pattern of patterns) assertSubscribeSubject(pattern);
  if (!Number.isInteger(options.keepMs) || options.keepMs <= 0) {
    throw new TypeError(`history keepMs must be a positive integer: ${String(options.keepMs)}`);
  }
  const stream = options.stream ?? historyStreamName(subjectPrefix);
  const jsm = await nc.jetstreamManager();
  await ensureStream(jsm, {
    name: stream,
    subjects: patterns.map((pattern) => subjectPrefix + pattern),
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(options.keepMs),
    num_replicas: 1,
  });
  const js: JetStreamClient = nc.jetstream();
  const covers = (subject: string) => patterns.some((pattern) => subjectMatches(pattern, subject));

  /** One subject's events since `sinceMs`, with their stream sequence. */
  const readSubject = async (subject: string, sinceMs: number) => {
    const info = await jsm.consumers.add(stream, {
      filter_subject: subjectPrefix + subject,
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(sinceMs).toISOString(),
      ack_policy: AckPolicy.None,
      inactive_threshold: nanos(CONSUMER_IDLE_MS),
      mem_storage: true,
      num_replicas: 1,
    });
    const kept: { seq: number; kept: KeptEvent }[] = [];
    try {
      let left = info.num_pending;
      if (left === 0) return kept;
      const consumer = await js.consumers.get(stream, info.name);
      while (left > 0) {
        const batch = await consumer.fetch({
          max_messages: Math.min(left, FETCH_BATCH),
          expires: FETCH_EXPIRES_MS,
        });
        let got = 0;
        for await (const msg of batch) {
          got++;
          left--;
          const delivered = decodeDelivered(msg, subjectPrefix, report);
          if (delivered !== null) kept.push({ seq: msg.seq, kept: delivered });
        }
        // Nothing came: what was pending aged out of the stream meanwhile.
        if (got === 0) break;
      }
      return kept;
    } finally {
      await jsm.consumers.delete(stream, info.name).catch(() => undefined);
    }
  };

  return {
    keepMs: options.keepMs,
    covers(subject) {
      assertPublishSubject(subject);
      return covers(subject);
    },
    async read(subjects, sinceMs) {
      ensureOpen();
      const wanted = [...new Set(subjects)];
      for (const subject of wanted) {
        assertPublishSubject(subject);
        if (!covers(subject)) throw new TypeError(`subject not kept by the history: ${subject}`);
      }
      const perSubject = await eachLimited(wanted, READ_CONCURRENCY, (subject) =>
        readSubject(subject, sinceMs),
      );
      return perSubject
        .flat()
        .sort((a, b) => a.seq - b.seq)
        .map((entry) => entry.kept);
    },
  };
}
