import type { SharedState } from './types.js';

export interface FallbackEvents {
  /** The primary failed: the fallback serves every call until the primary answers again. */
  onDegraded(err: unknown): void;
  /** The primary answers again (after `servedByFallback` calls went to the fallback). */
  onRecovered(servedByFallback: number): void;
}

/**
 * The primary store (Redis), with a store of this process to turn to while it fails: a call the
 * primary cannot answer (down, unreachable, too slow) is answered by the fallback instead of
 * failing the request. Limits then hold per node rather than across nodes, and what was counted
 * or set meanwhile stays on the node (docs/operations.md, Redis). Each change of state is
 * reported once, not each failed call.
 */
export function withFallback(
  primary: SharedState,
  fallback: SharedState,
  events: FallbackEvents,
): SharedState {
  let degraded = false;
  let servedByFallback = 0;
  let closing = false;

  async function attempt<R>(run: (state: SharedState) => R | Promise<R>): Promise<R> {
    // A request still in flight while the node shuts down: no Redis, and nothing to report.
    if (closing) return run(fallback);
    try {
      const result = await run(primary);
      if (degraded) {
        degraded = false;
        events.onRecovered(servedByFallback);
        servedByFallback = 0;
      }
      return result;
    } catch (err) {
      if (!degraded) {
        degraded = true;
        events.onDegraded(err);
      }
      servedByFallback++;
      return run(fallback);
    }
  }

  return {
    driver: primary.driver,
    rateLimits: {
      consume: (key, limit, nowMs) => attempt((s) => s.rateLimits.consume(key, limit, nowMs)),
      peek: (key, limit, nowMs) => attempt((s) => s.rateLimits.peek(key, limit, nowMs)),
      consumeChain: (steps, nowMs) => attempt((s) => s.rateLimits.consumeChain(steps, nowMs)),
    },
    identifyBuckets: {
      reserve: (key, quota, nowMs) => attempt((s) => s.identifyBuckets.reserve(key, quota, nowMs)),
    },
    presences: {
      ttlMs: primary.presences.ttlMs,
      set: (userId, presence, nowMs) => attempt((s) => s.presences.set(userId, presence, nowMs)),
      get: (userIds, nowMs) => attempt((s) => s.presences.get(userIds, nowMs)),
      refresh: (userIds, nowMs) => attempt((s) => s.presences.refresh(userIds, nowMs)),
    },
    voiceNodes: {
      announce: (node, at) => attempt((s) => s.voiceNodes.announce(node, at)),
      withdraw: (endpoint) => attempt((s) => s.voiceNodes.withdraw(endpoint)),
      list: (nowMs) => attempt((s) => s.voiceNodes.list(nowMs)),
      holder: (callKey, nowMs) => attempt((s) => s.voiceNodes.holder(callKey, nowMs)),
      claim: (claim, replacing) => attempt((s) => s.voiceNodes.claim(claim, replacing)),
      refresh: (claim) => attempt((s) => s.voiceNodes.refresh(claim)),
      release: (callKey, endpoint) => attempt((s) => s.voiceNodes.release(callKey, endpoint)),
    },
    async close() {
      closing = true;
      await Promise.all([primary.close(), fallback.close()]);
    },
  };
}
