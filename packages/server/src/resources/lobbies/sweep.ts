/**
 * The idle lobby sweep: a lobby with no members is deleted once its idle_timeout_seconds have
 * passed since its last member left (or since it was made, when nobody ever joined). Reads treat
 * such a lobby as gone already (shared.ts `idleExpired`); the sweep removes its rows. Time comes
 * from the injected clock, waits from the injected timers; app.ts starts and stops it.
 */
import type { Clock, Timers } from '../../domain/clock.js';
import { startRepeatingPass, type RepeatingPass } from '../../domain/repeat.js';
import { MINUTE_MS } from '../../domain/time.js';
import type { Storage } from '../../storage/index.js';

/** Between passes: an idle timeout is 5 seconds at least, so a lobby lingers a minute at most. */
export const LOBBY_SWEEP_INTERVAL_MS = MINUTE_MS;
/** Lobbies deleted per statement batch; a pass repeats until none are left. */
const SWEEP_BATCH = 100;

/** Deletes the lobbies whose idle timeout has run out at the clock's now; returns how many. */
export async function sweepIdleLobbies(deps: { storage: Storage; clock: Clock }): Promise<number> {
  let deleted = 0;
  for (;;) {
    const now = deps.clock.now();
    const expired = await deps.storage.lobbies.listExpiredEmpty(now, SWEEP_BATCH);
    for (const lobby of expired) {
      // Checked again inside the transaction: someone may have joined since the list was read.
      const gone = await deps.storage.transaction(async (tx) => {
        const again = await tx.lobbies.listExpiredEmpty(now, SWEEP_BATCH);
        if (!again.some((l) => l.id === lobby.id)) return false;
        return tx.lobbies.delete(lobby.id);
      });
      if (gone) deleted++;
    }
    if (expired.length < SWEEP_BATCH) return deleted;
  }
}

export type LobbySweeper = RepeatingPass;

export function startLobbySweeper(deps: {
  storage: Storage;
  clock: Clock;
  timers: Timers;
  intervalMs?: number;
  onError: (err: unknown) => void;
}): LobbySweeper {
  return startRepeatingPass({
    pass: () => sweepIdleLobbies(deps),
    timers: deps.timers,
    intervalMs: deps.intervalMs ?? LOBBY_SWEEP_INTERVAL_MS,
    onError: deps.onError,
  });
}
