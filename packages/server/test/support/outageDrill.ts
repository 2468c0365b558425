/**
 * The parts of an outage drill (test/chaos.test.ts, bench/outages.js): a writer that posts
 * messages at a steady rate through the API nodes and retries a write elsewhere until it is
 * acknowledged, the wait for every node to be ready again, and the account of each fault: how
 * long the nodes took, what the writes met, and which acknowledged messages each bot missed.
 *
 * @module
 */
import type { ResumingBot } from './resumingBot.js';

/** How long one write may take before it counts as failed and is tried again elsewhere, ms. */
const WRITE_TIMEOUT_MS = 5000;
const RETRY_MS = 100;
const READY_POLL_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** An acknowledged write: the message id the API answered, and when. */
export interface Acknowledged {
  id: string;
  atMs: number;
}

/** A write attempt that was not acknowledged: the status, or the network error's code. */
export interface WriteFailure {
  kind: string;
  atMs: number;
}

/**
 * Posts messages into a channel at `perSecond`, through the API nodes in turn. A write that fails
 * (a node gone, a 503) is tried again on the next node until one answers 200: what the writer
 * counts as written is what an API node acknowledged.
 */
export class SteadyWriter {
  readonly acknowledged: Acknowledged[] = [];
  readonly failures: WriteFailure[] = [];
  readonly #apiUrls: () => readonly string[];
  readonly #token: string;
  readonly #channelId: string;
  readonly #intervalMs: number;
  #running = false;
  #done: Promise<void> = Promise.resolve();
  #next = 0;

  constructor(options: {
    apiUrls: () => readonly string[];
    token: string;
    channelId: string;
    perSecond: number;
  }) {
    this.#apiUrls = options.apiUrls;
    this.#token = options.token;
    this.#channelId = options.channelId;
    this.#intervalMs = 1000 / options.perSecond;
  }

  start(): void {
    this.#running = true;
    this.#done = (async () => {
      let n = 0;
      let slot = performance.now();
      while (this.#running) {
        await this.#write(`drill ${String(n)}`);
        n++;
        // The next write is due one interval after the last slot; one that took longer is not
        // made up for with a burst.
        slot = Math.max(slot + this.#intervalMs, performance.now());
        await sleep(slot - performance.now());
      }
    })();
  }

  /** Stops after the write in progress is acknowledged. */
  async stop(): Promise<void> {
    this.#running = false;
    await this.#done;
  }

  async #write(content: string): Promise<void> {
    for (;;) {
      const urls = this.#apiUrls();
      const api = urls[this.#next++ % urls.length] ?? '';
      try {
        const answer = await fetch(`${api}/channels/${this.#channelId}/messages`, {
          method: 'POST',
          headers: { authorization: this.#token, 'content-type': 'application/json' },
          body: JSON.stringify({ content }),
          signal: AbortSignal.timeout(WRITE_TIMEOUT_MS),
        });
        if (answer.status === 200) {
          const { id } = (await answer.json()) as { id: string };
          this.acknowledged.push({ id, atMs: Date.now() });
          return;
        }
        this.failures.push({ kind: String(answer.status), atMs: Date.now() });
        if (answer.status === 429) {
          const { retry_after: wait } = (await answer.json()) as { retry_after: number };
          await sleep(wait * 1000);
          continue;
        }
        await answer.body?.cancel();
      } catch (err) {
        const cause = (err as { cause?: { code?: string } }).cause;
        this.failures.push({ kind: cause?.code ?? (err as Error).name, atMs: Date.now() });
      }
      await sleep(RETRY_MS);
    }
  }
}

/** Resolves to true once every URL's `/readyz` answers 200, or to false after `timeoutMs`. */
export async function allReady(urls: () => readonly string[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const answers = await Promise.all(
      urls().map((url) =>
        fetch(`${url}/readyz`, { signal: AbortSignal.timeout(2000) }).then(
          (r) => r.status,
          () => 0,
        ),
      ),
    );
    if (answers.every((status) => status === 200)) return true;
    if (Date.now() > deadline) return false;
    await sleep(READY_POLL_MS);
  }
}

/** One fault of a drill. */
export interface Fault {
  name: string;
  /** Breaks something (kills a process). */
  inject(): Promise<void>;
  /** How long it stays broken before {@link restore}, ms. */
  downMs: number;
  /** Brings it back (starts the process again, as a supervisor would). */
  restore(): Promise<void>;
}

/** What one fault cost: the row of the outage table. */
export interface FaultReport {
  fault: string;
  /** From the fault until every node answered /readyz 200 again, ms; null: not within the wait. */
  readyAgainMs: number | null;
  /** Writes acknowledged from the fault until the next one. */
  writes: number;
  /** Failed write attempts in that time, by status or error (each retried until acknowledged). */
  writeFailures: Record<string, number>;
  /** Per bot: acknowledged messages of that time the bot never heard. */
  missed: number[];
  /** Per bot: INVALID_SESSIONs, RESUMEDs and dropped connections in that time. */
  invalidations: number[];
  resumes: number[];
  drops: number[];
  /**
   * Per bot that lost its connection in that time: from the drop until its session was open again
   * (RESUMED, or READY after an IDENTIFY), ms.
   */
  reconnectMs: number[];
}

/**
 * Runs the faults one after another while `writer` writes and `bots` listen, each followed by
 * `settleMs` of steady traffic; then stops the writer and waits (up to `deliveryTimeoutMs`) for the
 * bots to hear every acknowledged message. Resolves to one report per fault.
 */
export async function runDrill(input: {
  faults: readonly Fault[];
  writer: SteadyWriter;
  bots: readonly ResumingBot[];
  nodeUrls: () => readonly string[];
  settleMs: number;
  readyTimeoutMs: number;
  deliveryTimeoutMs: number;
}): Promise<FaultReport[]> {
  const { writer, bots } = input;
  const windows: {
    fault: Fault;
    fromMs: number;
    readyAgainMs: number | null;
    counters: number[][];
  }[] = [];
  const counters = () => [
    bots.map((b) => b.invalidations),
    bots.map((b) => b.resumed),
    bots.map((b) => b.drops),
  ];
  await sleep(input.settleMs);
  for (const fault of input.faults) {
    const fromMs = Date.now();
    const before = counters();
    await fault.inject();
    await sleep(fault.downMs);
    await fault.restore();
    const ready = await allReady(input.nodeUrls, input.readyTimeoutMs);
    const readyAgainMs = ready ? Date.now() - fromMs : null;
    await sleep(input.settleMs);
    windows.push({ fault, fromMs, readyAgainMs, counters: before });
  }
  await writer.stop();
  const acknowledged = writer.acknowledged.map((a) => a.id);
  const deadline = Date.now() + input.deliveryTimeoutMs;
  const heardAll = (bot: ResumingBot) => {
    const heard = new Set(bot.messageIds);
    return acknowledged.every((id) => heard.has(id));
  };
  while (!bots.every(heardAll) && Date.now() < deadline) await sleep(READY_POLL_MS);
  const end = counters();
  return windows.map((window, i) => {
    const untilMs = windows[i + 1]?.fromMs ?? Infinity;
    const inWindow = (atMs: number) => atMs >= window.fromMs && atMs < untilMs;
    const acked = writer.acknowledged.filter((a) => inWindow(a.atMs));
    const writeFailures: Record<string, number> = {};
    for (const failure of writer.failures.filter((f) => inWindow(f.atMs))) {
      writeFailures[failure.kind] = (writeFailures[failure.kind] ?? 0) + 1;
    }
    const after = windows[i + 1]?.counters ?? end;
    const delta = (k: number) =>
      bots.map((_, b) => (after[k]?.[b] ?? 0) - (window.counters[k]?.[b] ?? 0));
    return {
      fault: window.fault.name,
      readyAgainMs: window.readyAgainMs,
      writes: acked.length,
      writeFailures,
      missed: bots.map((bot) => {
        const heard = new Set(bot.messageIds);
        return acked.filter((a) => !heard.has(a.id)).length;
      }),
      invalidations: delta(0),
      resumes: delta(1),
      drops: delta(2),
      reconnectMs: bots.flatMap((bot) => {
        const drop = bot.timeline.find((t) => t.kind === 'drop' && inWindow(t.atMs));
        const open = bot.timeline.find((t) => t.kind === 'open' && t.atMs > (drop?.atMs ?? 0));
        return drop === undefined || open === undefined ? [] : [open.atMs - drop.atMs];
      }),
    };
  });
}
