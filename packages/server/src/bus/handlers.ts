import type { BusErrorHandler, BusEvent, BusHandler } from './types.js';

/** Wraps `onError` so that a throwing one cannot stop delivery either. */
export function safeErrorHandler(onError: BusErrorHandler | undefined): BusErrorHandler {
  return (err, context) => {
    try {
      onError?.(err, context);
    } catch {
      // Nothing is left to tell: the bus logs nothing itself.
    }
  };
}

/** Calls one handler, sending a throw or a rejection to `report` instead of to the caller. */
export function invokeHandler(
  handler: BusHandler,
  delivery: { event: BusEvent; subject: string },
  report: BusErrorHandler,
): void {
  const { event, subject } = delivery;
  try {
    const result = handler(event, subject);
    if (result instanceof Promise) {
      result.catch((err: unknown) => {
        report(err, { subject, event });
      });
    }
  } catch (err) {
    report(err, { subject, event });
  }
}
