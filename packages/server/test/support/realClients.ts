/**
 * Waiting for the events of real client libraries in tests (realClients*.test.ts).
 *
 * @module
 */

/** Long enough for a slow CI machine; reaching it means the step never happened. */
const STEP_MS = 15_000;

/** Resolves on the first event `emitter` emits that `accept` takes. */
function when<TArgs extends unknown[]>(
  subscribe: (listener: (...args: TArgs) => void) => () => void,
  accept: (...args: TArgs) => boolean = () => true,
): Promise<TArgs> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error('the awaited client event never came'));
    }, STEP_MS);
    const stop = subscribe((...args) => {
      if (!accept(...args)) return;
      clearTimeout(timer);
      stop();
      resolve(args);
    });
  });
}

/** What the three libraries' emitters have in common. */
interface Listener {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  off(event: string, listener: (...args: unknown[]) => void): unknown;
}

/** `when` for an emitter (the libraries type their events each their own way). */
export function once<TArgs extends unknown[]>(
  emitter: object,
  event: string,
  accept?: (...args: TArgs) => boolean,
): Promise<TArgs> {
  const target = emitter as Listener;
  return when<TArgs>((listener) => {
    const untyped = listener as unknown as (...args: unknown[]) => void;
    target.on(event, untyped);
    return () => {
      target.off(event, untyped);
    };
  }, accept);
}
