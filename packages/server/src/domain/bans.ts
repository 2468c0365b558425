/** @module domain/bans: when a ban of a user holds. */

/** Whether a ban is in force at `now` (a permanent ban, `expiresAt` null, always is). */
export function banActive(ban: { expiresAt: number | null } | null, now: number): boolean {
  return ban !== null && (ban.expiresAt === null || ban.expiresAt > now);
}
