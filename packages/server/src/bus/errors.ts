/** Thrown by `publish` and `subscribe` once the bus is closed (or its connection is gone). */
export class BusClosedError extends Error {
  override readonly name = 'BusClosedError';
}

/**
 * A publish the bus dropped: it held more unsent events than its bound while the bus server was
 * unreachable, and this was the oldest. The subscriptions of its subject are told (`onGap`).
 */
export class BusOverflowError extends Error {
  override readonly name = 'BusOverflowError';
}
