/**
 * @module bus/nats/outboxQueue: the outbox's events in call order and what they hold. An event is
 * added when published and finished once NATS took it, it was dropped, or the bus closed; a
 * finished event's payload is let go at once and finished events are compacted out, so memory
 * follows what is unfinished (bus/nats/outbox.ts says when each happens).
 */
export interface Entry {
  /** The full NATS subject (with the prefix). */
  readonly natsSubject: string;
  /** The bus subject (without it), for a notice of its loss. */
  readonly subject: string;
  /** The encoded event; emptied once it is finished. */
  payload: Uint8Array;
  /** The payload's length, held until finished. */
  readonly size: number;
  readonly id: string;
  /** Whether the history keeps it (JetStream acknowledges it). */
  readonly kept: boolean;
  attempt: number;
  done: boolean;
  readonly resolve: () => void;
  readonly reject: (err: unknown) => void;
}

/** Builds the queue of one outbox. */
export function createOutboxQueue() {
  const released = new Uint8Array(0);
  /** Unfinished events in call order, among finished ones; those before `head` are finished. */
  let queue: Entry[] = [];
  let head = 0;
  /** How many entries of `queue` are finished (all before `head`, some after). */
  let finished = 0;
  let heldEvents = 0;
  let heldBytes = 0;
  let drained: (() => void) | null = null;

  const advance = () => {
    while (head < queue.length && queue[head]?.done === true) head++;
    // Most of the queue finished (behind an older event still waiting, say): keep the rest only.
    if (finished > 1024 && finished * 2 > queue.length) {
      queue = queue.slice(head).filter((entry) => !entry.done);
      head = 0;
      finished = 0;
    }
    if (heldEvents === 0) drained?.();
  };

  /** Settles an event: taken (no `err`), or rejected with `err`. */
  const finish = (entry: Entry, err?: unknown) => {
    if (entry.done) return;
    entry.done = true;
    entry.payload = released;
    finished++;
    heldEvents--;
    heldBytes -= entry.size;
    if (err === undefined) entry.resolve();
    else entry.reject(err);
    advance();
  };

  /** The oldest event not yet taken. */
  const firstHeld = (): Entry | undefined => {
    for (let i = head; i < queue.length; i++) {
      const entry = queue[i];
      if (entry !== undefined && !entry.done) return entry;
    }
    return undefined;
  };

  return {
    add(entry: Entry) {
      queue.push(entry);
      heldEvents++;
      heldBytes += entry.size;
    },
    finish,
    firstHeld,

    /** The unfinished events in order (a copy: finishing one may compact the queue). */
    unfinished: () => queue.slice(head).filter((entry) => !entry.done),

    held: () => ({ events: heldEvents, bytes: heldBytes }),

    /** Whether more is held than the limits allow. */
    overBound: (limits: { maxHeldEvents: number; maxHeldBytes: number }) =>
      heldEvents > limits.maxHeldEvents || heldBytes > limits.maxHeldBytes,

    /** Resolves once nothing is held any more (called while something is). */
    whenDrained: () =>
      new Promise<void>((resolve) => {
        drained = resolve;
      }),
  };
}
