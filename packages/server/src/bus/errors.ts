/** Thrown by `publish` and `subscribe` once the bus is closed (or its connection is gone). */
export class BusClosedError extends Error {
  override readonly name = 'BusClosedError';
}
