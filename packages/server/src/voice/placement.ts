/**
 * Which voice node serves a call. A call (a voice channel, or a lobby) lives on one node, so its
 * members meet there: the gateway sends the session that joins to the node already holding the
 * call, else claims the call for the least loaded live node. Voice nodes announce themselves
 * with a heartbeat (endpoint, load) in the shared state, memory in one process and Redis across
 * nodes; a node whose heartbeat stops drops out, and its calls move to a live node at the next
 * join. In one process (`role all`) the one node is this one.
 */
import type { Clock } from '../domain/clock.js';
import type { VoiceNodeEntry, VoiceNodeStore } from '../sharedState/index.js';

export interface VoicePlacementOptions {
  /** How long a node stays listed after its last heartbeat (heartbeat every third of it). */
  nodeTtlMs: number;
  /** How long a call's claim holds after its node last refreshed it (at its heartbeats). */
  callTtlMs: number;
}

export const DEFAULT_VOICE_PLACEMENT_OPTIONS = {
  nodeTtlMs: 15_000,
  callTtlMs: 45_000,
} as const satisfies VoicePlacementOptions;

export interface VoicePlacement {
  /** Voice node: lists this node (load 0) under the endpoint clients reach it at. */
  register(endpoint: string): Promise<void>;
  /**
   * Voice node: keeps this node listed with its load, and keeps the calls it serves claimed
   * (`calls`, their keys). Returns the calls another node holds now (taken over while this node
   * was thought dead): their members belong elsewhere.
   */
  heartbeat(load: number, calls?: readonly string[]): Promise<{ lost: string[] }>;
  /** Voice node: the call ended here; the next join may go to any node. */
  release(callKey: string): Promise<void>;
  /** Voice node: unlists this node (shutdown); its calls move at their next join. */
  withdraw(): Promise<void>;
  /**
   * Gateway: the endpoint (`host:port`) of the node for the call `callKey` (a channel's id or
   * a lobby's): its holder when live, else the least loaded live node, which claims it. With no
   * live node at all, the configured endpoint.
   */
  pick(callKey: string): Promise<string>;
}

/** The least loaded node, ties to the first endpoint in order (every gateway picks alike). */
function leastLoaded(nodes: readonly VoiceNodeEntry[]): VoiceNodeEntry | undefined {
  return [...nodes].sort((a, b) => a.load - b.load || a.endpoint.localeCompare(b.endpoint))[0];
}

export function createVoicePlacement(deps: {
  store: VoiceNodeStore;
  clock: Clock;
  /** Where sessions go while no voice node is listed (config.voiceEndpoint). */
  fallbackEndpoint: string;
  options?: Partial<VoicePlacementOptions>;
}): VoicePlacement {
  const { store, clock, fallbackEndpoint } = deps;
  const options = { ...DEFAULT_VOICE_PLACEMENT_OPTIONS, ...deps.options };
  let self: string | null = null;
  const registered = (): string => {
    if (self === null) throw new TypeError('voice placement: register() before a heartbeat');
    return self;
  };
  const claimOf = (callKey: string, endpoint: string) => ({
    callKey,
    endpoint,
    nowMs: clock.now(),
    ttlMs: options.callTtlMs,
  });

  return {
    async register(endpoint) {
      self = endpoint;
      await store.announce({ endpoint, load: 0 }, { nowMs: clock.now(), ttlMs: options.nodeTtlMs });
    },
    async heartbeat(load, calls = []) {
      const endpoint = registered();
      await store.announce({ endpoint, load }, { nowMs: clock.now(), ttlMs: options.nodeTtlMs });
      const lost: string[] = [];
      for (const callKey of calls) {
        const claim = claimOf(callKey, endpoint);
        if (await store.refresh(claim)) continue;
        // Lapsed (a slow heartbeat): claimed again unless another node took it meanwhile.
        if ((await store.claim(claim)) !== endpoint) lost.push(callKey);
      }
      return { lost };
    },
    async release(callKey) {
      await store.release(callKey, registered());
    },
    async withdraw() {
      if (self !== null) await store.withdraw(self);
    },
    async pick(callKey) {
      const nowMs = clock.now();
      const [nodes, holder] = await Promise.all([store.list(nowMs), store.holder(callKey, nowMs)]);
      if (holder !== null && nodes.some((n) => n.endpoint === holder)) return holder;
      const chosen = leastLoaded(nodes);
      if (chosen === undefined) return fallbackEndpoint;
      // A holder no longer listed is dead: its claim is replaced, unless a racing gateway's wins.
      return store.claim(claimOf(callKey, chosen.endpoint), holder);
    },
  };
}
