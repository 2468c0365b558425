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

/**
 * Where bucket counts live. The in-memory store serves one process; a shared store (Redis, the
 * database) serves many nodes behind one address, with the same interface.
 */
export interface RateLimitStore {
  /** Counts one request against `key`, or refuses it when the window is full. */
  consume(key: string, limit: BucketLimit, nowMs: number): ConsumeResult | Promise<ConsumeResult>;
  /** Reads a bucket without counting a request. */
  peek(key: string, limit: BucketLimit, nowMs: number): ConsumeResult | Promise<ConsumeResult>;
}
