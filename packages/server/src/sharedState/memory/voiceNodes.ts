import type { VoiceCallClaim, VoiceNodeEntry, VoiceNodeStore } from '../types.js';

interface Held {
  value: string;
  expiresAtMs: number;
}

/** The voice nodes of one process (`role all`, or tests): Maps with expiries by the caller's clock. */
export class MemoryVoiceNodeStore implements VoiceNodeStore {
  readonly #nodes = new Map<string, { load: number; expiresAtMs: number }>();
  readonly #calls = new Map<string, Held>();

  announce(node: VoiceNodeEntry, at: { nowMs: number; ttlMs: number }): Promise<void> {
    this.#nodes.set(node.endpoint, { load: node.load, expiresAtMs: at.nowMs + at.ttlMs });
    return Promise.resolve();
  }

  withdraw(endpoint: string): Promise<void> {
    this.#nodes.delete(endpoint);
    return Promise.resolve();
  }

  list(nowMs: number): Promise<VoiceNodeEntry[]> {
    const live: VoiceNodeEntry[] = [];
    for (const [endpoint, node] of this.#nodes) {
      if (node.expiresAtMs <= nowMs) this.#nodes.delete(endpoint);
      else live.push({ endpoint, load: node.load });
    }
    return Promise.resolve(live);
  }

  holder(callKey: string, nowMs: number): Promise<string | null> {
    return Promise.resolve(this.#live(callKey, nowMs)?.value ?? null);
  }

  claim(claim: VoiceCallClaim, replacing: string | null = null): Promise<string> {
    const held = this.#live(claim.callKey, claim.nowMs);
    if (held !== undefined && held.value !== replacing) return Promise.resolve(held.value);
    this.#calls.set(claim.callKey, {
      value: claim.endpoint,
      expiresAtMs: claim.nowMs + claim.ttlMs,
    });
    return Promise.resolve(claim.endpoint);
  }

  refresh(claim: VoiceCallClaim): Promise<boolean> {
    const held = this.#live(claim.callKey, claim.nowMs);
    if (held?.value !== claim.endpoint) return Promise.resolve(false);
    held.expiresAtMs = claim.nowMs + claim.ttlMs;
    return Promise.resolve(true);
  }

  release(callKey: string, endpoint: string): Promise<void> {
    if (this.#calls.get(callKey)?.value === endpoint) this.#calls.delete(callKey);
    return Promise.resolve();
  }

  /** The call's claim if it has not expired at `nowMs` (an expired one is dropped). */
  #live(callKey: string, nowMs: number): Held | undefined {
    const held = this.#calls.get(callKey);
    if (held !== undefined && held.expiresAtMs <= nowMs) {
      this.#calls.delete(callKey);
      return undefined;
    }
    return held;
  }
}
