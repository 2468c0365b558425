/**
 * The frames a test client received, and waiting for one: the gateway's and the voice
 * gateway's test clients keep their frames the same way.
 *
 * @module
 */

export interface FrameLog<F> {
  frames: F[];
  /** Records a frame and wakes whoever waits for one like it. */
  push: (frame: F) => void;
  /** Resolves with the first frame (from the start) matching, waiting if needed. */
  next: (match: (f: F) => boolean, timeoutMs?: number) => Promise<F>;
}

/** `describe` says what came, for the message of a wait that timed out. */
export function createFrameLog<F>(
  describe: (frames: readonly F[]) => string,
  defaultTimeoutMs = 5000,
): FrameLog<F> {
  const frames: F[] = [];
  const waiters: { match: (f: F) => boolean; resolve: (f: F) => void }[] = [];
  return {
    frames,
    push(frame) {
      frames.push(frame);
      for (const waiter of [...waiters]) {
        if (waiter.match(frame)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(frame);
        }
      }
    },
    next(match, timeoutMs = defaultTimeoutMs) {
      const found = frames.find(match);
      if (found !== undefined) return Promise.resolve(found);
      return new Promise<F>((resolve, reject) => {
        const timer = setTimeout(() => {
          reject(new Error(`no matching frame in ${timeoutMs} ms; got ${describe(frames)}`));
        }, timeoutMs);
        waiters.push({
          match,
          resolve: (f) => {
            clearTimeout(timer);
            resolve(f);
          },
        });
      });
    },
  };
}
