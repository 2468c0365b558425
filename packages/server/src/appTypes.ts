import type { FastifyInstance } from 'fastify';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { Logger } from 'pino';
import type { ActivityProxyOptions } from './activities/proxyServer.js';
import type { BlobStore } from './blobs/index.js';
import type { Services } from './appServices.js';
import type { AdminCommand } from './adminCommand.js';
import type { Config } from './config.js';
import type { Control } from './control/index.js';
import type { DeliverySettings } from './delivery/worker.js';
import type { Clock, Timers } from './domain/clock.js';
import type { Gateway, GatewayOptions } from './gateway/index.js';
import type { BucketLimit } from './http/rateLimit/index.js';
import type { IdTokenKeyPair } from './oauth/index.js';
import type { ProvisionalService } from './oauth/provisional/service.js';
import type { Stopwatch } from './resources/autoModeration/index.js';
import type { VoiceNodeWiring, VoiceTlsMaterial } from './voice/index.js';
import type { TlsMaterial } from './http/tlsCert.js';
import type { VoicePlacement } from './voice/placement.js';
import type { WorkerLeaseOptions } from './workerLease.js';
import type { AppSnapshot } from './control/reset.js';
import type { WorldState } from './control/worldTypes.js';
import type { SeedSource } from './domain/seeded.js';
import type { EventBus } from './bus/index.js';
import type { Storage } from './storage/index.js';

/** How `createApp` runs beside its config: the operator commands' settings, and the overrides. */
export interface AppOptions {
  logger?: Logger;
  /**
   * The snowflake process id (0–31) beside a configured worker id. Admin commands use their own
   * so ids they make never collide with a server's on the same worker. A leased slot brings its
   * own.
   */
  processId?: number;
  /** Whether to resume background jobs other nodes left (default true; admin commands: false). */
  resumeJobs?: boolean;
  /** Parts put in place of the production ones (tests, benches, one-shot commands). */
  overrides?: AppOverrides;
  /**
   * The operator commands (`guild add-bot`, `user create`, …) the server runs for a `guildhall`
   * command on its data folder: given by `guildhall start`, which then also writes
   * `<data-dir>/control.json` for them to find it (control/runFile.ts).
   */
  adminCommands?: readonly AdminCommand<Services & { provisional: ProvisionalService }>[];
}

/**
 * What a test (or a bench, or a one-shot command) puts in place of a part the config would make:
 * drivers it opened itself, time it drives, shorter limits, a sweep turned off. Each field left
 * out keeps the production part.
 */
export interface AppOverrides {
  clock?: Clock;
  /** Spans go to this exporter as they end (tests), tracing on whatever the config says. */
  traceExporter?: SpanExporter;
  /** A storage to use instead of the one the config names (tests pass their own). */
  storage?: Storage;
  /** A bus to use instead of the one the config names. */
  bus?: EventBus;
  blobs?: BlobStore;
  /** The bucket of routes that name none; tests lower or raise it. */
  defaultRouteBucket?: BucketLimit;
  /** The worker lease (PostgreSQL): timers tests drive and other durations. */
  workerLease?: { timers?: Timers; options?: Partial<WorkerLeaseOptions> };
  /** 401/403/429 answers an address may collect before it is refused (tests lower it). */
  invalidRequestLimit?: BucketLimit;
  /** Webhook event delivery: tests pass timers they drive and shorter limits. */
  webhookDelivery?: { timers?: Timers; settings?: Partial<DeliverySettings> };
  /** Gateway settings over the platform's defaults (tests shorten heartbeats...). */
  gateway?: Partial<GatewayOptions>;
  /** Where the gateway's waits come from (tests hold the identify queue's). */
  gatewayTimers?: Timers;
  /** The voice node's limits over its defaults, and the timers of its periodic pass (tests). */
  voice?: VoiceNodeWiring['tuning'];
  /** The orphan blob sweep (blobs/lifecycle.ts): timers tests drive, or false for none. */
  blobSweep?: { timers?: Timers; graceMs?: number } | false;
  /** The idle lobby sweep (resources/lobbies/sweep.ts): timers tests drive, or false for none. */
  lobbySweep?: { timers?: Timers } | false;
  /**
   * Idle threads archived, expired polls ended, expired credentials deleted
   * (resources/threads/sweep.ts, resources/auth/sweep.ts), or false for none.
   */
  timedSweep?: { timers?: Timers } | false;
  /** Interactions' 3-second deadlines and sweep (resources/interactions): timers tests fire. */
  interactions?: { timers?: Timers };
  /** The activity proxy host's waits: timers tests fire, shorter limits. */
  activityProxy?: Pick<ActivityProxyOptions, 'timers' | 'limits'>;
  /**
   * Auto-moderation's CPU budget: a stopwatch (ms) to measure it with, for both its wall-clock
   * and CPU time (tests pass their own).
   */
  autoModeration?: { stopwatch?: Stopwatch };
  /**
   * The ID token signing key stored when the database has none, instead of making one: tests
   * pass one key made once per run. Production leaves it out (a key is made for the database).
   */
  idTokenKey?: IdTokenKeyPair;
}

/** The running platform, as main.ts, the CLI and tests see it. */
export interface App {
  readonly config: Config;
  readonly http: FastifyInstance;
  readonly storage: Storage;
  readonly bus: EventBus;
  readonly blobs: BlobStore;
  readonly logger: Logger;
  readonly services: Services & { provisional: ProvisionalService };
  readonly gateway: Gateway;
  /**
   * Which voice node serves each call (voice/placement.ts): op 4 picks with it; a voice node of
   * this process registers and heartbeats with it.
   */
  readonly voicePlacement: VoicePlacement;
  /**
   * The test controls (docs/testing.md): the platform clock a test freezes, sets and advances,
   * the faults it injects, the log of what each bot did and was sent (recorded while the
   * `control` setting is on).
   */
  readonly control: Control;
  /** Starts listening; resolves to the base URL (no /api). */
  listen(): Promise<string>;
  /** The base URL (the configured port until listening). */
  baseUrl(): string;
  /** Where /metrics is served when it has a listener of its own (once listening), else null. */
  metricsUrl(): string | null;
  /** The API URL clients use (base URL + /api/v10). */
  apiUrl(): string;
  gatewayUrl(): string;
  /**
   * The voice node this process serves (once listening, its endpoint), else null. Its TLS
   * certificate is read or made on first use: the first TLS connection, or `tls()`.
   */
  readonly voice: { endpoint(): string; tls(): Promise<VoiceTlsMaterial> } | null;
  /**
   * Takes a point to return to (control/reset.ts): `restore()` brings back the database as it is
   * now and forgets what the server learnt since (rate limits, sessions, cached credentials).
   */
  snapshot(): Promise<AppSnapshot>;
  /** Worlds loaded into this server and the point reset() returns to (control/worldState.ts). */
  readonly worlds: WorldState;
  /**
   * Runs `work` with the ids and credentials its services make drawn from `source` instead of
   * the clock and randomness (a world's seed, control/world.ts); other work meanwhile is unaffected.
   */
  withSeed<T>(source: SeedSource, work: () => Promise<T>): Promise<T>;
  /** The certificate HTTPS and WSS are served with, or null for plain HTTP. */
  tls(): TlsMaterial | null;
  close(): Promise<void>;
}
