/**
 * Replay protection of a sender's nonce counters (the sliding window of RFC 4303 §3.4.3 and
 * SRTP): a counter is accepted once, and up to {@link REPLAY_WINDOW} behind the highest seen so
 * that UDP reordering costs nothing. Without it, anyone able to send from a member's address
 * could have an old packet relayed to the call again.
 *
 * @module
 */

/** How far behind the highest counter a late packet is still accepted. */
export const REPLAY_WINDOW = 32;

export class ReplayWindow {
  /** The highest counter accepted, -1 before the first. */
  #highest = -1;
  /** Bit i: counter `highest - i` was accepted. */
  #seen = 0;

  /** Whether `counter` (0 … 2³²−1) was neither accepted before nor is too old to tell. */
  fresh(counter: number): boolean {
    if (counter > this.#highest) return true;
    const behind = this.#highest - counter;
    return behind < REPLAY_WINDOW && (this.#seen & (1 << behind)) === 0;
  }

  /** Records `counter` as accepted; call only after {@link fresh} and authentication. */
  accept(counter: number): void {
    if (counter > this.#highest) {
      const shift = counter - this.#highest;
      this.#seen = shift >= REPLAY_WINDOW ? 1 : ((this.#seen << shift) | 1) >>> 0;
      this.#highest = counter;
    } else {
      this.#seen = (this.#seen | (1 << (this.#highest - counter))) >>> 0;
    }
  }

  /** Forgets everything (a new key starts a new sequence). */
  reset(): void {
    this.#highest = -1;
    this.#seen = 0;
  }
}
