/**
 * @module bus/nats/history: the bus's history in a JetStream stream. The stream captures what is
 * published on the kept subjects (publishers wait for its acknowledgement: bus/nats/outbox.ts),
 * keeps it for `keepMs`, and is read back through short-lived consumers: per subject for a
 * session taken over from a node that died, whole for a bus catching up after it was cut off
 * (bus/nats/deliveries.ts).
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
  type JsMsg,
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

/**
 * The subject (after the prefix) of the notices of events a publisher dropped
 * (bus/nats/outbox.ts): every stream keeps it, so a subscriber cut off meanwhile still hears it.
 */
export const LOST_SUBJECT = '_bus.lost';

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
 * How much of the keep time a reader does not count on: the bus server's clock against this
 * node's, and the server's own pass over aged messages.
 */
const AGE_MARGIN_MS = 5000;

/** What a NATS bus reads of its history besides the contract's `read`. */
export interface NatsHistory extends EventHistory {
  /** Whether every subject matching `pattern` (wildcards allowed) is kept. */
  coversPattern(pattern: string): boolean;
  /**
   * Hands `each` every kept message published at or after `sinceMs` (by the bus server's clock),
   * in the order the stream stored them, up to at least the moment of the call. Resolves to the
   * moment from which the stream holds everything published (epoch ms): when it was made (later
   * than expected: a server back without its store), or the keep time ago.
   */
  scan(sinceMs: number, each: (msg: JsMsg) => void): Promise<{ wholeSinceMs: number }>;
  /** Makes the stream again if it is gone (a server started without its store). */
  ensure(): Promise<void>;
}

/** Whether every subject `pattern` matches also matches the kept pattern `kept`. */
export function patternWithin(pattern: string, kept: string): boolean {
  const want = pattern.split('.');
  const have = kept.split('.');
  for (const [i, token] of have.entries()) {
    if (token === '>') return want.length > i;
    const asked = want[i];
    if (asked === undefined || asked === '>') return false;
    if (token !== '*' && (asked === '*' || asked !== token)) return false;
  }
  return want.length === have.length;
}

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
}): Promise<NatsHistory> {
  const { nc, subjectPrefix, options, report, ensureOpen } = input;
  for (const pattern of options.subjects) assertSubscribeSubject(pattern);
  const patterns = [...options.subjects, LOST_SUBJECT];
  if (!Number.isInteger(options.keepMs) || options.keepMs <= 0) {
    throw new TypeError(`history keepMs must be a positive integer: ${String(options.keepMs)}`);
  }
  const stream = options.stream ?? historyStreamName(subjectPrefix);
  const jsm = await nc.jetstreamManager();
  const config = {
    name: stream,
    subjects: patterns.map((pattern) => subjectPrefix + pattern),
    retention: RetentionPolicy.Limits,
    storage: StorageType.File,
    discard: DiscardPolicy.Old,
    max_age: nanos(options.keepMs),
    num_replicas: 1,
  };
  await ensureStream(jsm, config);
  const js: JetStreamClient = nc.jetstream();
  const covers = (subject: string) => patterns.some((pattern) => subjectMatches(pattern, subject));

  /**
   * Hands `each` the messages of `filter` (a whole-stream read when null) stored at or after
   * `sinceMs`, in stream order, through a consumer made for this one read.
   */
  const readConsumer = async (
    filter: string | null,
    sinceMs: number,
    each: (msg: JsMsg) => void,
  ): Promise<void> => {
    const info = await jsm.consumers.add(stream, {
      ...(filter === null ? {} : { filter_subject: subjectPrefix + filter }),
      deliver_policy: DeliverPolicy.StartTime,
      opt_start_time: new Date(sinceMs).toISOString(),
      ack_policy: AckPolicy.None,
      inactive_threshold: nanos(CONSUMER_IDLE_MS),
      mem_storage: true,
      num_replicas: 1,
    });
    try {
      let left = info.num_pending;
      if (left === 0) return;
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
          each(msg);
        }
        // Nothing came: what was pending aged out of the stream meanwhile.
        if (got === 0) break;
      }
    } finally {
      await jsm.consumers.delete(stream, info.name).catch(() => undefined);
    }
  };

  /** One subject's events since `sinceMs`, with their stream sequence. */
  const readSubject = async (subject: string, sinceMs: number) => {
    const kept: { seq: number; kept: KeptEvent }[] = [];
    await readConsumer(subject, sinceMs, (msg) => {
      const delivered = decodeDelivered(msg, subjectPrefix, report);
      if (delivered !== null) kept.push({ seq: msg.seq, kept: delivered });
    });
    return kept;
  };

  return {
    keepMs: options.keepMs,
    covers(subject) {
      assertPublishSubject(subject);
      return covers(subject);
    },
    coversPattern: (pattern) => patterns.some((kept) => patternWithin(pattern, kept)),
    async scan(sinceMs, each) {
      const info = await jsm.streams.info(stream);
      const wholeSinceMs = Math.max(
        Date.parse(info.created),
        Date.now() - options.keepMs + AGE_MARGIN_MS,
      );
      await readConsumer(null, sinceMs, each);
      return { wholeSinceMs };
    },
    ensure: () => ensureStream(jsm, config),
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
