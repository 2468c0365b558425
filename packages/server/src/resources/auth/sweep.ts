/**
 * The expired credentials sweep: session tokens and OAuth2 access tokens past their expiry (the
 * authenticator refuses them already), the OAuth2 rows of those access tokens, and login links
 * past theirs leave the database. Each task deletes one bounded batch; the timed sweep
 * (resources/threads/sweep.ts) repeats a task until a batch comes back short, every minute.
 * Tokens without an expiry (bot tokens, refresh tokens) are never swept.
 */
import type { Clock } from '../../domain/clock.js';
import type { Storage } from '../../storage/index.js';

/** One batch of a sweep: deletes at most `limit` rows, resolves to how many it deleted. */
export type SweepTask = (limit: number) => Promise<number>;

/** The tasks that delete expired credentials at the clock's now. */
export function expiredCredentialTasks(deps: { storage: Storage; clock: Clock }): SweepTask[] {
  const { storage, clock } = deps;
  return [
    (limit) => storage.tokens.deleteExpired(clock.now(), limit),
    (limit) => storage.oauth.deleteExpiredTokens(clock.now(), limit),
    (limit) => storage.loginLinks.deleteExpired(clock.now(), limit),
  ];
}
