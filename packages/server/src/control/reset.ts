/**
 * @module control/reset: returning a running server to a point taken earlier (a loaded world),
 * for tests: the database's contents, and what the server keeps in memory about them.
 */

/** A point the server can return to (App.snapshot()). */
export interface AppSnapshot {
  /**
   * Returns the server to this point: the database as it was, rate limits and presences
   * forgotten, cached credentials dropped, gateway sessions closed (their clients reconnect and
   * identify again), the bus's history of dispatches emptied.
   */
  restore(): Promise<void>;
}
