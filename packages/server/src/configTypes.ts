import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SecretKeyring } from './domain/keyring.js';
import type { CorsOrigins } from './domain/corsOrigins.js';
import { isLoopbackHost } from './domain/loopback.js';

/** Everything the server reads from its environment, validated once at start. */
export interface Config {
  host: string;
  port: number;
  dataDir: string;
  /** A postgres:// URL, or null for embedded SQLite in the data folder. */
  databaseUrl: string | null;
  natsUrl: string | null;
  /**
   * The prefix of every NATS subject (`guildhall.`), so deployments sharing one NATS stay
   * apart; the bus history's JetStream stream is named after it (`guildhall_history`).
   */
  natsSubjectPrefix: string;
  /**
   * How long NATS keeps the dispatches in that stream, for a gateway node taking over the
   * sessions of one that died (docs/operations.md); 0: no stream, nothing kept.
   */
  natsHistorySeconds: number;
  /**
   * A redis:// or rediss:// URL: rate limits, identify buckets and presences shared by every
   * node on it; null keeps them in this process (docs/operations.md, Redis).
   */
  redisUrl: string | null;
  /** The prefix of every Redis key, so deployments sharing one Redis stay apart. */
  redisKeyPrefix: string;
  /**
   * The snowflake worker id (0–31); null: leased from the database among those free (PostgreSQL),
   * or 0 (SQLite, one process). See docs/operations.md, Worker ids.
   */
  workerId: number | null;
  /** The address clients use, when it differs from host:port (behind a proxy, say). */
  publicUrl: string | null;
  logLevel: LogLevel;
  /** How log lines look: `auto` is decided by `guildhall start` (pretty on a terminal). */
  logFormat: LogFormat;
  rateLimits: boolean;
  /** Requests per second a bot (or an unauthenticated address) may make in all. */
  globalRateLimitPerSecond: number;
  /** The bucket of a route that names none of its own. */
  routeRateLimit: { limit: number; windowMs: number };
  /**
   * Which proxies' X-Forwarded-For is believed: false (none), true (any), a hop count (the last
   * N proxies), or the addresses and CIDR ranges of trusted proxies (Fastify's trustProxy).
   */
  trustProxy: TrustProxy;
  maxBodyBytes: number;
  /** The largest file a message (user, bot, webhook or interaction response) may attach. */
  maxAttachmentBytes: number;
  /** The most one request may upload in all; null: 10 × maxAttachmentBytes. */
  maxUploadBytes: number | null;
  /** How long a signed attachment URL the API hands out stays valid. */
  attachmentUrlSeconds: number;
  /** How long a verified token is trusted without a database read. */
  authCacheSeconds: number;
  /** How long a session token lives unused (each use moves its expiry). */
  sessionTtlDays: number;
  /** scrypt's cost for passwords, as log2(N) (r 8, p 1); older hashes are redone at login. */
  passwordScryptLog2N: number;
  demo: boolean;
  /** Development only: accept http://127.0.0.1 OpenID issuers (the issuer hostname rules waived). */
  oidcAllowInsecureLocal: boolean;
  /** SHA-256 (hex) of the operator token of the /admin routes; null disables them. */
  adminTokenHash: string | null;
  /**
   * The test controls under `/_guildhall/v1/` (clock, faults, log, worlds) and the request log:
   * on, off, or `auto`, on while the server listens on a loopback address (docs/testing.md).
   * Served only to loopback clients, or with the admin token (`controlEnabled`).
   */
  control: boolean | 'auto';
  /**
   * SHA-256 (hex) of the bearer token GET /metrics requires. Null: /metrics is served only while
   * the server listens on a loopback address (docs/operations.md).
   */
  metricsTokenHash: string | null;
  /**
   * Where /metrics is served instead of the main listener (its own small HTTP listener), or null
   * for the main one. The token/loopback rule applies to this address.
   */
  metricsListen: { host: string; port: number } | null;
  /**
   * The key stored secrets are sealed with (32 bytes), or a keyring during a rotation
   * (domain/keyring.ts); null: `<dataDir>/secret.key`, made at first start (docs/operations.md).
   */
  secretKey: SecretKeyring | null;
  /** How long after `guildhall secrets rotate` the previous key still opens and verifies. */
  secretKeyRetireHours: number;
  /** Development only: webhook events may go to loopback URLs (http or https); see urlPolicy.ts. */
  allowLocalWebhooks: boolean;
  /**
   * What this process serves: `all` (the HTTP API and the gateway), `api` (the HTTP API only;
   * its dispatches reach gateway processes over NATS) or `gateway` (the WebSocket gateway only).
   */
  role: ServerRole;
  /** The gateway URL GET /gateway advertises, when the gateway is another process. */
  gatewayUrl: string | null;
  /** Seconds a gateway connection may stay without IDENTIFY or RESUME before close 4003. */
  gatewayIdentifyTimeoutSeconds: number;
  /** Open gateway connections not yet identified one client address may hold (more: HTTP 429). */
  gatewayMaxUnidentifiedPerAddress: number;
  /** Bytes queued unread for one gateway connection before it is closed with 4008. */
  gatewayMaxBufferedBytes: number;
  /** The build of the web client and portal (packages/web/dist), served where the API is. */
  webDir: string;
  /**
   * Which origins' pages may call the HTTP API from a browser (CORS, without credentials):
   * `*` (any, the default), a list of origins, or null (none). Never the OAuth2 pages.
   */
  corsOrigins: CorsOrigins;
  /**
   * The host name of each application's activity origin, `{application_id}` standing for its id
   * as the first label (activities/proxyHost.ts, docs/activities.md#the-proxy-host).
   */
  activityHost: string;
  /** Development only: activity URL mappings may target loopback (never other private ranges). */
  activityAllowLoopback: boolean;
  /** The largest request body the activity proxy host forwards to a mapping target. */
  activityMaxBodyBytes: number;
  /**
   * The voice node's port: TCP for its WebSocket gateway and UDP for media, the same number.
   * Default: the API port + 1 (0 when the API port is 0: a free port).
   */
  voicePort: number;
  /** The address the voice node listens on; default: the API host. */
  voiceHost: string;
  /**
   * The `host:port` (no scheme) VOICE_SERVER_UPDATE advertises for this node; default
   * voiceHost:voicePort, with 0.0.0.0 and :: read as 127.0.0.1.
   */
  voiceEndpoint: string;
  /** The IPv4 address the voice gateway's Ready announces for media; default: the endpoint's host. */
  voicePublicIp: string;
  /**
   * `dev`: the API and gateway listener serves HTTPS and WSS with a development certificate made
   * at first start in `<dataDir>/tls/`; `off`: plain HTTP, unless tlsCert and tlsKey are set.
   */
  tls: 'off' | 'dev';
  /** PEM certificate and key paths the API and gateway listener serves HTTPS and WSS with. */
  tlsCert: string | null;
  tlsKey: string | null;
  /**
   * The bucket and key prefix blobs live in (GUILDHALL_BLOB_URL=s3://bucket/prefix), shared by
   * every node; null: the folder `<dataDir>/blobs` (docs/operations.md, Object storage).
   */
  blobBucket: BlobBucket | null;
  /** The S3-compatible service's URL; null: AWS's for the region. */
  s3Endpoint: string | null;
  s3Region: string;
  /** The access key; null: the AWS SDK's own chain (AWS_ACCESS_KEY_ID, a profile, a role). */
  s3AccessKeyId: string | null;
  s3SecretAccessKey: string | null;
  /** Path-style addressing (`endpoint/bucket/key`), which most self-hosted services need. */
  s3PathStyle: boolean;
  /**
   * Where traces go (OTLP over HTTP: spans are POSTed to `<endpoint>/v1/traces`); null: no
   * tracing, and the tracing SDK is never loaded (docs/operations.md, Tracing).
   */
  otlpEndpoint: string | null;
  /** PEM certificate and key paths of the voice WebSocket; null: self-signed in `<dataDir>/voice-tls/`. */
  voiceTlsCert: string | null;
  voiceTlsKey: string | null;
  /** The most members one call (voice channel or lobby) may hold on a voice node. */
  voiceMaxMembers: number;
  /** The largest UDP datagram the media relay accepts. */
  voiceMaxPacketBytes: number;
  /**
   * The CPU time auto-moderation may take to check one message (or a member's names), all of the
   * guild's rules together; a rule left unchecked when it runs out fails closed, and rules whose
   * worst case cannot fit are refused when saved (docs/automod.md).
   */
  autoModerationBudgetMs: number;
}

/** The settings whose default is worked out from others, as read before that. */
export type DerivedSetting = 'voicePort' | 'voiceHost' | 'voiceEndpoint' | 'voicePublicIp';
export type RawConfig = Omit<Config, DerivedSetting> & { [K in DerivedSetting]: Config[K] | null };

/** A bucket of an S3-compatible service, and the prefix ('' or ending with '/') of every key. */
export interface BlobBucket {
  bucket: string;
  prefix: string;
}

/** Fastify's trustProxy forms this config accepts. */
export type TrustProxy = boolean | number | string[];

export const SERVER_ROLES = ['all', 'api', 'gateway', 'voice'] as const;
export type ServerRole = (typeof SERVER_ROLES)[number];

/** What a process may serve: `all` serves each of them, another role only its own. */
export type ServerPart = Exclude<ServerRole, 'all'>;

/** Whether a process of `role` serves `part` (the HTTP API, the gateway, the voice node). */
export function roleServes(role: ServerRole, part: ServerPart): boolean {
  return role === 'all' || role === part;
}

/** Whether the test controls are on: `control` on, or `auto` and the host a loopback address. */
export function controlEnabled(config: Pick<Config, 'control' | 'host'>): boolean {
  return config.control === 'auto' ? isLoopbackHost(config.host) : config.control;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export const LOG_FORMATS = ['auto', 'json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The web build: `web/` inside an installed package (`npm pack` copies it there), else
 * packages/web/dist beside this package in the repository (configTypes.ts sits in src/, its .js
 * in dist/).
 */
export const DEFAULT_WEB_DIR =
  [
    fileURLToPath(new URL('../web', import.meta.url)),
    fileURLToPath(new URL('../../web/dist', import.meta.url)),
  ].find((dir) => existsSync(join(dir, 'index.html'))) ??
  fileURLToPath(new URL('../../web/dist', import.meta.url));

/** A setting with a bad value: its message is one line naming the setting and what is allowed. */
export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

export interface Setting<T> {
  env: string;
  flag: string;
  /** What is allowed, as the error message says it. */
  allowed: string;
  defaultValue: T;
  parse(raw: string): T | undefined;
}
