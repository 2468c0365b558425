import { write as fsWrite, writeSync } from 'node:fs';

/** Standard output's file descriptor: where `npm start` writes its log lines. */
export const STDOUT_FD = 1;

/**
 * Lines wait at most this long to be written, so that a busy server writes a few large batches
 * a second rather than a small one per event loop turn (each write is a system call on a thread).
 */
const BATCH_DELAY_MS = 20;
/** A batch this large is written at once, without waiting for the delay. */
const BATCH_CHARS = 64 * 1024;
/** Lines waiting for a slow output beyond this many characters are dropped (and counted). */
const DEFAULT_MAX_PENDING_CHARS = 16 * 1024 * 1024;
/** How long to wait before writing again to an output that answered EAGAIN. */
const RETRY_AFTER_MS = 10;
/** How many times flushSync tries an output that answers EAGAIN before it gives up. */
const SYNC_ATTEMPTS = 100;

/** What pino needs of a destination, and what the app calls at shutdown. */
export interface LogDestination {
  /** Queues one line; it reaches the output within {@link BATCH_DELAY_MS}. */
  write(line: string): boolean;
  /** Calls back once every line queued so far has been written (or the output failed). */
  flush(callback?: (err?: Error) => void): void;
  /** Writes what is queued before returning: for the process's `exit` event. */
  flushSync(): void;
}

export interface LogDestinationOptions {
  /** How many characters may wait for the output before further lines are dropped. */
  maxPendingChars?: number;
}

interface InFlight {
  data: Buffer;
  offset: number;
  /** False while waiting to retry after EAGAIN: then flushSync may write the rest itself. */
  submitted: boolean;
}

function dropNotice(dropped: number): string {
  const msg = `${dropped} log lines dropped: the log output did not keep up`;
  return `${JSON.stringify({ level: 40, msg })}\n`;
}

/**
 * An asynchronous destination for log lines on a file descriptor. Lines are queued and written in
 * batches (every {@link BATCH_DELAY_MS} at most, or once {@link BATCH_CHARS} are waiting) with one
 * `write` on libuv's thread pool at a time, so a request never waits for the disk or a terminal.
 * pino's own destination (sonic-boom) measures the byte length of its growing buffer on every
 * line and writes after every event loop turn, which under load cost more than the rest of a
 * cached-auth request (docs/benchmarks.md). Partial writes are continued, EAGAIN is retried, a closed
 * reader (EPIPE) stops the output, and lines beyond `maxPendingChars` are counted and reported
 * rather than held. Whatever is queued is written synchronously when the process exits, also
 * after an uncaught exception; as with pino's own destination, a write the thread pool is already
 * running finishes there. `app.close()` flushes before it returns, so a clean shutdown loses
 * nothing.
 */
export function createLogDestination(
  fd: number = STDOUT_FD,
  options: LogDestinationOptions = {},
): LogDestination {
  const maxPendingChars = options.maxPendingChars ?? DEFAULT_MAX_PENDING_CHARS;
  // One string, appended to: V8 keeps it as a rope until Buffer.from copies it once.
  // (Array.prototype.join over pino's lines took from 0.1 to 7 ms per 64 KiB batch.)
  let pending = '';
  let dropped = 0;
  let timer: NodeJS.Timeout | null = null;
  let inFlight: InFlight | null = null;
  let broken = false;
  let exitHooked = false;
  let waiters: ((err?: Error) => void)[] = [];

  /** Lines, or a count of dropped ones, are waiting to be written. */
  const queued = () => pending !== '' || dropped > 0;

  const settle = () => {
    if (inFlight !== null || (queued() && !broken)) return;
    const done = waiters;
    waiters = [];
    for (const callback of done) callback();
  };

  const takePending = (): string => {
    const text = (dropped > 0 ? dropNotice(dropped) : '') + pending;
    pending = '';
    dropped = 0;
    return text;
  };

  const stop = (err: NodeJS.ErrnoException) => {
    broken = true;
    inFlight = null;
    pending = '';
    dropped = 0;
    if (err.code !== 'EPIPE') {
      // The log itself failed: say so once where it can still be read.
      try {
        writeSync(2, `guildhall: log output failed (${err.code ?? err.message}); logs stop here\n`);
      } catch {
        // Nowhere left to say it.
      }
    }
    settle();
  };

  const writeOut = (job: InFlight) => {
    job.submitted = true;
    fsWrite(fd, job.data, job.offset, job.data.length - job.offset, null, (err, written) => {
      if (err !== null) {
        if (err.code === 'EAGAIN') {
          job.submitted = false;
          setTimeout(() => {
            writeOut(job);
          }, RETRY_AFTER_MS).unref();
        } else {
          stop(err);
        }
        return;
      }
      job.offset += written;
      if (job.offset < job.data.length) {
        writeOut(job);
        return;
      }
      inFlight = null;
      if (queued()) schedule();
      else settle();
    });
  };

  /** Writes the queue now when it is large or someone waits for it, else after the delay. */
  function schedule() {
    if (inFlight !== null) return;
    if (pending.length >= BATCH_CHARS || waiters.length > 0) drain();
    else timer ??= setTimeout(drain, BATCH_DELAY_MS).unref();
  }

  function drain() {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (inFlight !== null || broken || !queued()) {
      settle();
      return;
    }
    inFlight = { data: Buffer.from(takePending(), 'utf8'), offset: 0, submitted: false };
    writeOut(inFlight);
  }

  const writeAllSync = (data: Buffer, from: number) => {
    let offset = from;
    let attempts = 0;
    while (offset < data.length) {
      try {
        offset += writeSync(fd, data, offset, data.length - offset);
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code !== 'EAGAIN' || ++attempts >= SYNC_ATTEMPTS) return;
        // A blocking sleep: the process is exiting, and the output is not ready yet.
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, RETRY_AFTER_MS);
      }
    }
  };

  const flushSync = () => {
    if (broken) return;
    // A write the thread pool is running finishes there; one waiting to retry is done here.
    if (inFlight !== null && !inFlight.submitted) {
      writeAllSync(inFlight.data, inFlight.offset);
      inFlight = null;
    }
    if (queued()) writeAllSync(Buffer.from(takePending(), 'utf8'), 0);
  };

  return {
    write(line) {
      if (broken) return true;
      if (!exitHooked) {
        exitHooked = true;
        process.once('exit', flushSync);
      }
      if (pending.length + line.length > maxPendingChars) dropped += 1;
      else pending += line;
      schedule();
      return true;
    },
    flush(callback) {
      if (callback !== undefined) waiters.push(callback);
      // A write running now calls drain (through schedule) or settle when it ends.
      if (inFlight === null) drain();
    },
    flushSync,
  };
}
