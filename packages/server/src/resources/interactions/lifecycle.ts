/**
 * The 3-second rule of interactions (docs/interactions.md#the-3-second-rule): an interaction is
 * acknowledged by its initial response, once, or it fails. Each node watches the interactions it
 * delivered with a timer that marks them failed when their deadline passes unacknowledged; a
 * sweep does the same for what a stopped node left (rows past their deadline), and deletes the
 * rows whose 15-minute token expired. The invoking user's sessions are told either way, with
 * Guildhall's own user-addressed dispatches INTERACTION_SUCCESS and INTERACTION_FAILURE
 * ({id, nonce}), which the platform's client hears under the same names.
 */
import type { Clock, Timers } from '../../domain/clock.js';
import { SECOND_MS } from '../../domain/time.js';
import { afterWrite, onCommit } from '../../events/afterCommit.js';
import type { Dispatch } from '../../events/dispatcher.js';
import type { InteractionRecord, Repositories, Storage } from '../../storage/index.js';

/** How long an app has for its initial response. */
export const INTERACTION_ACK_DEADLINE_MS = 3 * SECOND_MS;
/** How long an interaction's token lives (followups, edits of the original response). */
export const INTERACTION_TOKEN_TTL_MS = 15 * 60 * SECOND_MS;
/** Between sweeps of overdue and expired interactions. */
export const INTERACTION_SWEEP_INTERVAL_MS = 30 * SECOND_MS;
/** Interactions failed per sweep batch; a pass repeats until none are left. */
const SWEEP_BATCH = 100;

/** INTERACTION_SUCCESS and _FAILURE: which interaction (and the client's nonce) went how. */
export interface InteractionOutcomePayload {
  id: string;
  nonce: string | null;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    INTERACTION_SUCCESS: InteractionOutcomePayload;
    INTERACTION_FAILURE: InteractionOutcomePayload;
  }
}

/** Tells the invoking user's sessions how the interaction went. */
function outcomeDispatch(
  type: 'INTERACTION_SUCCESS' | 'INTERACTION_FAILURE',
  interaction: Pick<InteractionRecord, 'id' | 'nonce' | 'userId'>,
): Dispatch {
  return {
    type,
    guildId: null,
    userIds: [interaction.userId],
    data: { id: interaction.id, nonce: interaction.nonce },
  };
}

export interface InteractionLifecycle {
  /** How long an app has for its initial response (3 s; tests may pass their own). */
  readonly ackDeadlineMs: number;
  /** Fails the interaction at its deadline unless it was acknowledged by then. */
  watch(interaction: InteractionRecord): void;
  /**
   * Records the initial response inside the caller's transaction: false when the interaction was
   * acknowledged already (40060) or has failed (10062). Once it commits, the timer is cleared and
   * the invoking user is told of the success.
   */
  acknowledge(
    tx: Repositories,
    interaction: InteractionRecord,
    responseType: number,
  ): Promise<boolean>;
  /** Fails an unacknowledged interaction now and tells its user; false when it was settled. */
  fail(interaction: InteractionRecord): Promise<boolean>;
  /** One pass: fails the overdue interactions and deletes the expired ones. */
  sweep(): Promise<{ failed: number; deleted: number }>;
  /** Starts the sweep: a pass now (what a stopped node left), then one every interval. */
  start(): void;
  /** Stops the sweep and clears every timer (the sweep of another start fails what was left). */
  stop(): Promise<void>;
}

/**
 * Watches interactions on this node. `storage` is a dispatching storage (its statements announce
 * after they commit); `timers` schedule the deadlines and the sweep, so tests fire them by hand.
 */
export function createInteractionLifecycle(deps: {
  storage: Storage;
  clock: Clock;
  timers: Timers;
  ackDeadlineMs?: number;
  sweepIntervalMs?: number;
  onError: (err: unknown) => void;
}): InteractionLifecycle {
  const { storage, clock, timers } = deps;
  const pending = new Map<string, () => void>();
  let stopped = false;
  let running: Promise<unknown> = Promise.resolve();
  let cancelSweep: (() => void) | null = null;

  const clear = (interactionId: string) => {
    pending.get(interactionId)?.();
    pending.delete(interactionId);
  };

  const fail = async (interaction: InteractionRecord) => {
    clear(interaction.id);
    const failed = await storage.interactions.markFailed(interaction.id, clock.now());
    if (failed) afterWrite(storage, outcomeDispatch('INTERACTION_FAILURE', interaction));
    return failed;
  };

  const sweep = async () => {
    let failed = 0;
    for (;;) {
      const overdue = await storage.interactions.listOverdue(clock.now(), SWEEP_BATCH);
      for (const interaction of overdue) if (await fail(interaction)) failed++;
      if (overdue.length < SWEEP_BATCH) break;
    }
    const deleted = await storage.interactions.deleteExpired(clock.now());
    return { failed, deleted };
  };

  /** One sweep from the timer; its promise is the wait's work (the platform clock awaits it). */
  const runSweep = () => {
    const pass = sweep();
    running = pass.catch(deps.onError);
    return running.then(() => {
      if (!stopped) {
        cancelSweep = timers.schedule(
          runSweep,
          deps.sweepIntervalMs ?? INTERACTION_SWEEP_INTERVAL_MS,
        );
      }
    });
  };

  return {
    ackDeadlineMs: deps.ackDeadlineMs ?? INTERACTION_ACK_DEADLINE_MS,
    watch(interaction) {
      if (stopped) return;
      clear(interaction.id);
      const wait = Math.max(0, interaction.ackDeadlineAt - clock.now());
      pending.set(
        interaction.id,
        timers.schedule(() => {
          pending.delete(interaction.id);
          return fail(interaction).catch(deps.onError);
        }, wait),
      );
    },
    async acknowledge(tx, interaction, responseType) {
      const acknowledged = await tx.interactions.acknowledge(interaction.id, responseType);
      if (!acknowledged) return false;
      onCommit(tx, () => {
        clear(interaction.id);
      });
      afterWrite(tx, outcomeDispatch('INTERACTION_SUCCESS', interaction));
      return true;
    },
    fail,
    sweep,
    start() {
      if (!stopped && cancelSweep === null) cancelSweep = timers.schedule(runSweep, 0);
    },
    async stop() {
      stopped = true;
      cancelSweep?.();
      for (const cancel of pending.values()) cancel();
      pending.clear();
      await running;
    },
  };
}
