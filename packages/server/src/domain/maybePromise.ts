/**
 * A value now, or later: what a step of the request path returns when it may have to wait (a
 * database read, a shared rate limit store) but most often need not (a cached token, the
 * in-memory store).
 */
export type MaybePromise<T> = T | PromiseLike<T>;

/** Whether a step's answer is still to come. */
export function isPromiseLike<T>(value: MaybePromise<T>): value is PromiseLike<T> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}

/**
 * `next(value)` at once when the value is there, else once it arrives. Chaining steps this way
 * instead of with async/await spares a promise and a microtask per step when nothing waits,
 * which on a cached-auth request was a measurable share of its cost (docs/benchmarks.md). A
 * step's synchronous throw stays synchronous: callers treat it like a rejection.
 */
export function andThen<T, R>(
  value: MaybePromise<T>,
  next: (value: T) => MaybePromise<R>,
): MaybePromise<R> {
  return isPromiseLike(value) ? Promise.resolve(value).then(next) : next(value);
}
