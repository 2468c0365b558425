/**
 * What the client's feature areas (auth, relationships, messages, lobbies, presence…) share: the
 * HTTP client, the gateway, the log, the local state, the platform and the dispatch handlers.
 * Only the SDK's own modules see it; games use `Client`.
 *
 * @module
 */
import { AuthorizationTokenType, ClientStatus, type ClientError } from './enums.js';
import { notReadyError, validationError } from './errors.js';
import { Gateway } from './gateway.js';
import { Http } from './http.js';
import type { Logger } from './log.js';
import type { Platform } from './platform.js';
import type { SocialState } from './state.js';

export type DispatchHandler = (data: unknown) => void;

export interface ClientToken {
  type: AuthorizationTokenType;
  value: string;
}

export class ClientCore {
  readonly http: Http;
  readonly gateway: Gateway;
  readonly logger: Logger;
  readonly state: SocialState;
  readonly platform: Platform;
  /** The web client's base URL (deep links, invite pages), without a trailing slash. */
  readonly webBase: string;
  /** The application set by setApplicationId (or the token's, after READY). */
  applicationId: string | null = null;
  token: ClientToken | null = null;
  readonly #handlers = new Map<string, DispatchHandler[]>();

  /**
   * Builds the HTTP client and the gateway over this core's token and dispatch handlers, which
   * exist before them: the gateway after the HTTP client it asks for its address, then follows
   * the HTTP client's rate-limit waits in its status.
   */
  constructor(parts: {
    apiBase: string;
    fetch?: typeof fetch;
    logger: Logger;
    state: SocialState;
    platform: Platform;
    webBase: string;
    /** Every status change of the gateway, with why. */
    onStatus: (status: ClientStatus, error: ClientError, errorDetail: number) => void;
    /** The gateway's identify properties. */
    properties: { os: string; browser: string; device: string };
  }) {
    this.logger = parts.logger;
    this.state = parts.state;
    this.platform = parts.platform;
    this.webBase = parts.webBase;
    this.http = new Http({
      apiBase: parts.apiBase,
      logger: parts.logger,
      authorization: () => this.authorization(),
      ...(parts.fetch === undefined ? {} : { fetch: parts.fetch }),
    });
    this.gateway = new Gateway({
      http: this.http,
      logger: parts.logger,
      WebSocket: parts.platform.WebSocket,
      token: () => this.authorization(),
      onStatus: parts.onStatus,
      onDispatch: (type, data) => {
        this.dispatch(type, data);
      },
      properties: parts.properties,
    });
    this.http.onRateLimitWait((waiting) => {
      this.gateway.setHttpWait(waiting);
    });
  }

  /** The `Authorization` header for the client's token. */
  authorization(): string | null {
    if (this.token === null) return null;
    return this.token.type === AuthorizationTokenType.Bearer
      ? `Bearer ${this.token.value}`
      : this.token.value;
  }

  /** Adds a handler for a gateway dispatch (`READY`, `MESSAGE_CREATE`…); handlers run in order. */
  on(type: string, handler: DispatchHandler): void {
    const list = this.#handlers.get(type) ?? [];
    list.push(handler);
    this.#handlers.set(type, list);
  }

  dispatch(type: string, data: unknown): void {
    for (const handler of this.#handlers.get(type) ?? []) {
      try {
        handler(data);
      } catch (error) {
        this.logger.error(`A ${type} handler failed: ${String(error)}`);
      }
    }
  }

  get ready(): boolean {
    return this.gateway.status === ClientStatus.Ready;
  }

  /** Throws ClientNotReady unless the gateway session is READY. */
  requireReady(operation: string): void {
    if (!this.ready) throw notReadyError(operation);
  }

  /** The application an operation runs for: an explicit id, else the client's. */
  requireApplicationId(operation: string): string {
    const id = this.applicationId ?? this.state.applicationId;
    if (id === null) {
      throw validationError(`${operation} needs an application id: call setApplicationId() first.`);
    }
    return id;
  }

  /** Runs a callback a game registered, keeping its exceptions out of the SDK. */
  invoke<A extends unknown[]>(callback: ((...args: A) => void) | null, ...args: A): void {
    if (callback === null) return;
    try {
      callback(...args);
    } catch (error) {
      this.logger.error(`A callback threw: ${String(error)}`);
    }
  }
}
