/**
 * @module gateway/recovery: what a session missed when the node serving it died. That node wrote
 * its replay entries out every 25 ms, so its last few never reached the database, and nobody
 * received the session's dispatches between its death and the RESUME. The bus's history (NATS:
 * a JetStream stream) still holds them: the node taking the session over reads the session's
 * subjects from a little before the newest stored entry, leaves out the dispatches the stored
 * entries came from, and routes the rest for the session.
 *
 * A dispatch the dead node sent but had not yet stored is sent again (its client saw it): after
 * a crash, delivery is at least once, never less.
 */
import type { EventHistory } from '../bus/index.js';
import { guildSubject, userSubject } from '../events/dispatcher.js';
import type { GatewayReplayEntry } from '../storage/index.js';
import type { Fanout } from './fanout.js';
import type { HeldDispatch, Session } from './session.js';

/**
 * How far before the newest stored dispatch the history is read: publishers' clocks against the
 * bus server's, and dispatches a node received in another order than the server stored them.
 * More only costs reading; a dispatch found again is recognised by its id.
 */
export const HISTORY_MARGIN_MS = 2000;

/** Where to start reading a session's history, epoch ms (the bus server's clock). */
export function historyStart(stored: readonly GatewayReplayEntry[], savedAt: number): number {
  const published = stored.flatMap((entry) =>
    entry.source === null ? [] : [entry.source.publishedAt],
  );
  if (published.length === 0) return savedAt - HISTORY_MARGIN_MS;
  // Not before the oldest stored one: what came before it was sent, and is no longer stored.
  return Math.max(Math.max(...published) - HISTORY_MARGIN_MS, Math.min(...published));
}

export type Recover = (
  session: Session,
  input: { stored: readonly GatewayReplayEntry[]; savedAt: number },
) => Promise<HeldDispatch[] | null>;

/**
 * The recovery of one node. `recover` resolves to what the session missed, in the order the bus
 * received it, or to null when the bus keeps no history (then nothing can be recovered).
 */
export function createRecovery(deps: {
  history: EventHistory | null;
  fanout: Pick<Fanout, 'routeForSession'>;
  /** Told of each read: how many dispatches it recovered, or null when the bus keeps none. */
  replayed?: (recovered: number | null) => void;
}): Recover {
  const { history, fanout } = deps;
  return async (session, { stored, savedAt }) => {
    if (history === null) {
      deps.replayed?.(null);
      return null;
    }
    const subjects = [
      userSubject(session.userId),
      ...[...session.guildIds].map((guildId) => guildSubject(guildId)),
    ].filter((subject) => history.covers(subject));
    const kept = await history.read(subjects, historyStart(stored, savedAt));
    const storedIds = new Set<string>();
    for (const entry of stored) if (entry.source !== null) storedIds.add(entry.source.id);
    const missed: HeldDispatch[] = [];
    for (const event of kept) {
      const held = fanout.routeForSession(session, event);
      const id = held[0]?.source?.id;
      // Stored, or found on two subjects (a user's and a guild's): sent already.
      if (id === undefined || storedIds.has(id)) continue;
      storedIds.add(id);
      missed.push(...held);
    }
    deps.replayed?.(missed.length);
    return missed;
  };
}
