/**
 * The limits, counters and presences every node must agree on. One process keeps them in its
 * memory; several nodes keep them in Redis (`REDIS_URL`), behind the same interfaces.
 *
 * Time is always the caller's: every method takes `nowMs` from the injected Clock, and a window
 * ends when that clock says so on whichever node asks. A store's own expiry (Redis key TTLs)
 * only collects what nobody asks for any more.
 */

/** A fixed-window bucket: `limit` requests per `windowMs`. */
export interface BucketLimit {
  limit: number;
  windowMs: number;
}

export interface ConsumeResult {
  allowed: boolean;
  limit: number;
  /** Requests left in the window after this one. */
  remaining: number;
  /** When the window ends, in epoch milliseconds. */
  resetAtMs: number;
}

/** One window of a {@link RateLimitStore.consumeChain}. */
export interface ChainStep {
  key: string;
  limit: BucketLimit;
  /** true: a request that passes is counted (consume); false: the window is only read (peek). */
  count: boolean;
}

export interface ChainResult {
  /** The index of the step that refused the request, or -1 when every step let it pass. */
  refusedAt: number;
  /**
   * One result per step reached, in order, as consume (or peek) would give it; when a step
   * refused, it is the last.
   */
  results: ConsumeResult[];
}

/**
 * Fixed-window counts by key: the HTTP rate limits, the session start limit (a day's window per
 * bot) and the op 8 all-members window. A window starts at the first request counted in it; a
 * refused request does not count.
 */
export interface RateLimitStore {
  /** Counts one request against `key`, or refuses it when the window is full. */
  consume(key: string, limit: BucketLimit, nowMs: number): ConsumeResult | Promise<ConsumeResult>;
  /** Reads a bucket without counting a request. */
  peek(key: string, limit: BucketLimit, nowMs: number): ConsumeResult | Promise<ConsumeResult>;
  /**
   * Goes through `steps` in order, as one atomic call (one Redis round trip): a step refuses the
   * request when its window is full, and otherwise counts it if it is a counting step. The first
   * refusal ends the chain: the steps after it are neither read nor counted, the ones before it
   * stay counted. The HTTP limits of a request (invalid-request counts, global limit, route
   * bucket) are one chain.
   */
  consumeChain(steps: readonly ChainStep[], nowMs: number): ChainResult | Promise<ChainResult>;
}

/** How many identifies one max_concurrency bucket admits, and per how long. */
export interface IdentifyQuota {
  perWindow: number;
  windowMs: number;
}

/**
 * The max_concurrency buckets of IDENTIFY (docs/platform-notes.md#gateway-limits). A bucket is
 * never refused: once a window is full, the next reservation falls in the window after it, so
 * a storm of identifies is spread over the windows in order.
 */
export interface IdentifyBuckets {
  /**
   * Reserves the next identify of bucket `key`; resolves to when it may go (epoch ms; at or
   * before `nowMs`: at once).
   */
  reserve(key: string, quota: IdentifyQuota, nowMs: number): Promise<number>;
}

/**
 * The users' presences (op 3), by user id, readable by every node. An entry lives `ttlMs` past
 * its last `set` or `refresh`: the node serving the user's sessions refreshes it, so the entries
 * of a node that died go away on their own. Values are JSON.
 */
export interface PresenceStore<T = unknown> {
  readonly ttlMs: number;
  set(userId: string, presence: T, nowMs: number): Promise<void>;
  /** The live presences among `userIds` (users without one are absent from the map). */
  get(userIds: readonly string[], nowMs: number): Promise<Map<string, T>>;
  /** Moves the expiry of the users' live entries to `nowMs + ttlMs`; absent users stay absent. */
  refresh(userIds: readonly string[], nowMs: number): Promise<void>;
}

/** A live voice node: the `host:port` clients reach it at (its id) and its load. */
export interface VoiceNodeEntry {
  endpoint: string;
  /** What the node reports, members connected say: the least loaded gets new calls. */
  load: number;
}

/** A call claimed for a node (voice/placement.ts). */
export interface VoiceCallClaim {
  /** The call: a voice channel's id, or a lobby's. */
  callKey: string;
  /** The node claiming it. */
  endpoint: string;
  nowMs: number;
  /** How long the claim holds without a refresh. */
  ttlMs: number;
}

/**
 * The voice nodes and which node holds each call (docs/voice.md): nodes announce themselves
 * with a heartbeat and drop out when it stops; a call is claimed for one node, set-if-absent,
 * and the claim lives while its node refreshes it. Expiry is by the caller's clock.
 */
export interface VoiceNodeStore {
  /** Registers or refreshes a node until `nowMs + ttlMs`. */
  announce(node: VoiceNodeEntry, at: { nowMs: number; ttlMs: number }): Promise<void>;
  /** Removes a node at once (it shuts down). */
  withdraw(endpoint: string): Promise<void>;
  /** The live nodes at `nowMs`, by endpoint. */
  list(nowMs: number): Promise<VoiceNodeEntry[]>;
  /** The node holding the call at `nowMs`, or null. */
  holder(callKey: string, nowMs: number): Promise<string | null>;
  /**
   * Claims the call for `claim.endpoint` when nobody holds it (or its claim expired, or it is
   * held by `replacing`, a node found dead); returns the holder afterwards, the winner of a race.
   */
  claim(claim: VoiceCallClaim, replacing?: string | null): Promise<string>;
  /** Moves the expiry of the call's claim when `claim.endpoint` holds it; whether it did. */
  refresh(claim: VoiceCallClaim): Promise<boolean>;
  /** Releases the call when `endpoint` holds it. */
  release(callKey: string, endpoint: string): Promise<void>;
}

/** Everything shared, from one driver. */
export interface SharedState {
  /** `memory`: this process only; `redis`: every node on the same Redis and key prefix. */
  readonly driver: 'memory' | 'redis';
  readonly rateLimits: RateLimitStore;
  readonly identifyBuckets: IdentifyBuckets;
  readonly presences: PresenceStore;
  readonly voiceNodes: VoiceNodeStore;
  /**
   * Forgets the rate-limit windows, identify buckets and presences (the voice nodes stay), for
   * a server returned to a snapshot (control/reset.ts). Only this process's memory can.
   */
  clear?(): void;
  close(): Promise<void>;
}

/** How long a presence lives without a refresh (a refresh comes every third of it). */
export const DEFAULT_PRESENCE_TTL_MS = 60_000;
