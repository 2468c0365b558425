/**
 * @module control/types: what a test (or the HTTP controls under `/_guildhall/v1/`) drives in a
 * running platform: its clock, the faults it injects on purpose, and the log of what each bot
 * did and was sent. `app.control` is one of these (docs/testing.md).
 */
import type { Clock, Timers } from '../domain/clock.js';

/**
 * A length of time: milliseconds, or a text such as `'15m'`, `'1h30m'`, `'2d'`, `'3s'`,
 * `'250ms'` (units `ms`, `s`, `m`, `h`, `d`, `w`).
 */
export type Duration = number | string;

/** A moment: epoch milliseconds, an ISO 8601 text (`'2030-01-01T00:00:00Z'`) or a Date. */
export type Instant = number | string | Date;

/** Where the platform's clock stands. */
export interface ClockState {
  /** The platform's time, epoch milliseconds. */
  nowMs: number;
  /** The same, as ISO 8601. */
  now: string;
  /** Whether it stands still (moved only by `set` and `advance`). */
  frozen: boolean;
  /** How far it is from the real clock (platform minus real), in ms. */
  offsetMs: number;
}

/**
 * The platform's clock, which every dated rule reads (interaction tokens and the 3-second rule,
 * invite expiry, member timeouts, lobby idle timeouts, polls, scheduled events, subscription
 * periods, rate-limit windows, snowflake timestamps, the spec's dated rules). It runs with the
 * real clock until frozen; `set` and `advance` move it, and the platform's background waits
 * (`timers`) whose deadline it passes fire then. Waits a client drives over the wire
 * (heartbeats, the identify deadline, the resume window) stay on real time
 * (docs/testing.md#time).
 */
export interface PlatformClock extends Clock {
  /** The platform's time, epoch milliseconds. */
  now(): number;
  /** Where it stands. */
  state(): ClockState;
  /** Stops it (at `at`, else where it stands); waits on it stop too until it moves. */
  freeze(at?: Instant): Promise<ClockState>;
  /** Lets it run with the real clock again, from where it stands (the offset kept). */
  resume(): ClockState;
  /**
   * Puts it at `to` (frozen or running as it was). Waits whose deadline is now past fire; the
   * promise settles once their work has (a poll ended, an interaction failed, …).
   */
  set(to: Instant): Promise<ClockState>;
  /** Moves it forward by `by` (not back: use `set`); waits now due fire, as for `set`. */
  advance(by: Duration): Promise<ClockState>;
  /** Back to the real time, running, no offset (what `reset` does). */
  restore(): Promise<ClockState>;
  /** The platform's background waits, which follow this clock. */
  readonly timers: Timers;
}

/** Who a fault applies to; absent fields match everyone. */
export interface FaultScope {
  /**
   * Only requests, sessions or deliveries of this bot: its user id or its application's id (a
   * person's user id matches that person's requests and sessions too).
   */
  botId?: string;
  /** Fires at most this many times, then is gone (absent: until removed). */
  times?: number;
}

/** An HTTP fault: the request is answered (or treated) this way instead of being served. */
export type HttpFaultAction =
  /** A 429 with the platform's headers and body (`retry_after` in seconds, default 1). */
  | {
      type: 'rateLimit';
      retryAfter?: number;
      scope?: 'user' | 'global' | 'shared';
      bucket?: string;
    }
  /** A server error (500–599) with the platform's body, or `body` when given. */
  | { type: 'serverError'; status?: number; body?: unknown }
  /** The request waits `ms` (real time) and is then served. */
  | { type: 'latency'; ms: number }
  /** The connection is dropped without an answer (the socket destroyed). */
  | { type: 'drop' };

/** Which requests an HTTP fault matches. */
export interface HttpFaultMatch {
  /** GET, POST, …; absent: any. */
  method?: string;
  /**
   * The path after the API prefix (`/api` or `/api/v10`), or a full path outside it: `*` is one
   * segment, `**` any number (`'/channels/*\/messages'`, `'/**'`).
   */
  path: string;
}

/** A gateway fault: what a session is done to. */
export type GatewayFaultAction =
  /** Op 7 RECONNECT, then the connection closes (the client resumes). */
  | { type: 'reconnect' }
  /** Op 9 INVALID_SESSION with `d` = `resumable`; a non-resumable session is ended. */
  | { type: 'invalidSession'; resumable: boolean }
  /** The connection closes with `code` (a gateway close code, 4000–4014, or 1000–1011). */
  | { type: 'close'; code: number; reason?: string }
  /** Heartbeats are no longer acknowledged (each unanswered heartbeat counts one firing). */
  | { type: 'ignoreHeartbeats' }
  /** Dispatches (of `events`, else all) leave `ms` later (real time), in order. */
  | { type: 'delayDispatches'; ms: number; events?: string[] }
  /** Dispatches (of `events`, else all) are never sent, nor kept for a RESUME. */
  | { type: 'dropDispatches'; events?: string[] };

/**
 * When a reconnect, invalid-session or close fault fires: at once on the live sessions it
 * matches (`now`, the default), or in answer to the next IDENTIFY or RESUME.
 */
export type GatewayFaultTrigger = 'now' | 'identify' | 'resume';

/** A delivery fault: the app's endpoint seen as timing out or failing. */
export interface DeliveryFaultAction {
  /** The interactions endpoint URL, or the webhook-events URL. */
  target: 'interactions' | 'webhookEvents';
  /** `timeout`: no answer in time; `status`: answers `status` (default 500). */
  failure: 'timeout' | 'status';
  status?: number;
}

/** What `faults.add` takes. */
export type FaultSpec =
  | (FaultScope & HttpFaultMatch & { kind: 'http' } & HttpFaultAction)
  | (FaultScope & {
      kind: 'gateway';
      /** Only this session. */
      sessionId?: string;
      on?: GatewayFaultTrigger;
    } & GatewayFaultAction)
  | (FaultScope & { kind: 'delivery' } & DeliveryFaultAction);

/** A fault in force. */
export type Fault = FaultSpec & {
  /** Its id, for `remove`. */
  readonly id: string;
  /** How many times it has fired. */
  readonly fired: number;
  /** When it was added, platform epoch ms. */
  readonly createdAtMs: number;
};

/** What `expireToken` and `revokeToken` did. */
export interface TokenFaultResult {
  /** The kind of token it was. */
  kind: 'bot' | 'bearer' | 'session' | 'interaction';
  /** What happened to it. */
  outcome: 'expired' | 'revoked';
}

/**
 * Faults injected on purpose. Each is counted, scoped (a bot, a number of times), listed and
 * removed; `reset` removes them all.
 */
export interface Faults {
  /** Puts a fault in force and returns it (with its id). */
  add(spec: FaultSpec): Fault;
  /** The faults in force, oldest first, with how many times each fired. */
  list(): Fault[];
  /** One fault, or undefined when it is gone (removed, or spent its `times`). */
  get(id: string): Fault | undefined;
  /** Removes a fault; false when there was none by that id. */
  remove(id: string): boolean;
  /** Removes every fault. */
  clear(): void;
  /**
   * Makes a token expire now: an OAuth2 access token or an interaction token (its 15 minutes
   * over). A bot or session token has no expiry and is revoked instead. Its sessions end (close
   * 4004) and its requests get 401 (interaction tokens: 10015 Unknown Webhook).
   */
  expireToken(token: string): Promise<TokenFaultResult>;
  /** Revokes a token now: bot token reset, OAuth2 token revoked, session logged out. */
  revokeToken(token: string): Promise<TokenFaultResult>;
}

/** One HTTP request a user (bot or person) made. */
export interface HttpLogEntry {
  kind: 'http';
  method: string;
  /** The path as requested (no query). */
  path: string;
  /** The route's pattern, `/api/v10/channels/:channelId/messages`; null when none matched. */
  route: string | null;
  status: number;
  /** The parsed request body (JSON or form), null for none or a file upload. */
  request: unknown;
  /** The answer's body (parsed JSON), null for none. */
  response: unknown;
  /** The id of the fault that answered it, if one did. */
  faultId?: string;
}

/** A frame a session sent the gateway (op 1 heartbeats left out). */
export interface GatewayCommandLogEntry {
  kind: 'gatewayCommand';
  sessionId: string | null;
  op: number;
  d: unknown;
}

/** A dispatch the gateway sent a session. */
export interface DispatchLogEntry {
  kind: 'dispatch';
  sessionId: string;
  t: string;
  s: number;
  d: unknown;
}

/** One line of the log, with what it concerns. */
export type LogEntry = (HttpLogEntry | GatewayCommandLogEntry | DispatchLogEntry) & {
  /** Increasing across the whole log: a cursor for `since`. */
  readonly seq: number;
  /** Platform time, epoch ms. */
  readonly atMs: number;
  /** The user it concerns (a bot's user id); null for a request without a token. */
  readonly userId: string | null;
  /** The application of the token, when it belongs to one. */
  readonly applicationId: string | null;
};

/** What `log.entries` filters on. */
export interface LogFilter {
  /** A bot's (or person's) user id, or an application id. */
  botId?: string;
  kind?: LogEntry['kind'];
  /** Only entries after this `seq`. */
  since?: number;
  /** The last this many entries (default: all kept). */
  limit?: number;
}

/**
 * What each bot (and person) did and was sent: HTTP requests with route, status and bodies,
 * gateway commands, dispatches. The last {@link ControlLog.capacity} entries per user are kept.
 */
export interface ControlLog {
  /** The entries kept that match, oldest first. */
  entries(filter?: LogFilter): LogEntry[];
  /** Calls `listener` with each new entry; returns the unsubscribe. */
  subscribe(listener: (entry: LogEntry) => void): () => void;
  /** Forgets every entry (the `seq` keeps counting). */
  clear(): void;
  /** How many entries are kept per user. */
  readonly capacity: number;
}

/** A running app's test controls: `app.control`. */
export interface Control {
  readonly clock: PlatformClock;
  readonly faults: Faults;
  readonly log: ControlLog;
}
