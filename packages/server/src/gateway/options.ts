/** Settings of the gateway; every one has the platform's value as its default. */
export interface GatewayOptions {
  /** HELLO's heartbeat_interval, ms. */
  heartbeatIntervalMs: number;
  /** How long past the interval a silent connection is kept before close 4009, ms. */
  heartbeatGraceMs: number;
  /**
   * The session start bucket count reported by GET /gateway/bot
   * (docs/platform-notes.md#gateway-limits).
   */
  maxConcurrency: number;
  /** IDENTIFYs each bucket (`shard_id % max_concurrency`) admits per 5 s; more wait their turn. */
  identifiesPerBucket: number;
  /** IDENTIFYs a bot may start per day (session_start_limit.total). */
  identifyPerDay: number;
  /** A session without sharding may hold at most this many guilds (else close 4011). */
  shardingRequiredGuilds: number;
  /** Dispatches kept per session for RESUME. */
  replayLimit: number;
  /** How long a disconnected session can still be resumed, ms. */
  resumeWindowMs: number;
  /** Privileged intents need an approval at and above this many users reached (spec: 10,000). */
  privilegedIntentReviewThreshold: number;
  /** Events a client may send per minute before close 4008. */
  clientEventsPerMinute: number;
  /** How long a connection may stay without an accepted IDENTIFY or RESUME before close 4003, ms. */
  identifyTimeoutMs: number;
  /** Open connections not yet identified one client address may hold; more get HTTP 429. */
  maxUnidentifiedPerAddress: number;
  /** Bytes queued for a connection (unread by a slow client) past which it is closed with 4008. */
  maxBufferedBytes: number;
}

export const DEFAULT_GATEWAY_OPTIONS: GatewayOptions = {
  heartbeatIntervalMs: 41_250,
  heartbeatGraceMs: 10_000,
  maxConcurrency: 1,
  identifiesPerBucket: 1,
  identifyPerDay: 1000,
  shardingRequiredGuilds: 2500,
  replayLimit: 1000,
  resumeWindowMs: 5 * 60_000,
  privilegedIntentReviewThreshold: 10_000,
  clientEventsPerMinute: 120,
  identifyTimeoutMs: 20_000,
  maxUnidentifiedPerAddress: 32,
  maxBufferedBytes: 4 * 1024 * 1024,
};

/** From this date every bot receives obfuscated channels (spec, dated behaviour). */
export const CHANNEL_OBFUSCATION_MANDATORY_FROM_MS = Date.UTC(2026, 10, 16);
