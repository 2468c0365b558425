/** How often the composer tells the API the user is typing: the indicator lasts 10 s. */
export const TYPING_INTERVAL_MS = 8_000;

/**
 * A throttle for POST /channels/{id}/typing: `typed()` on each keystroke sends at most once per
 * interval; `sent()` after a message resets it (the message ends the indicator for others).
 */
export function createTypingThrottle(
  send: () => void,
  now: () => number = Date.now,
  interval = TYPING_INTERVAL_MS,
) {
  let last = -Infinity;
  return {
    typed() {
      const t = now();
      if (t - last < interval) return;
      last = t;
      send();
    },
    sent() {
      last = -Infinity;
    },
  };
}
