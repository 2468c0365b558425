/**
 * What the client's feature areas (auth, relationships, messages, lobbies, presence…) share: the
 * HTTP client, the gateway, the log, the local state, the platform and the dispatch handlers.
 * Only the SDK's own modules see it; games use `Client`.
 *
 * @module
 */
import { AuthorizationTokenType, ClientStatus } from './enums.js';
import { notReadyError, validationError } from './errors.js';
import type { Gateway } from './gateway.js';
import type { Http } from './http.js';
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

  constructor(parts: {
    http: Http;
    gateway: Gateway;
    logger: Logger;
    state: SocialState;
    platform: Platform;
    webBase: string;
  }) {
    this.http = parts.http;
    this.gateway = parts.gateway;
    this.logger = parts.logger;
    this.state = parts.state;
    this.platform = parts.platform;
    this.webBase = parts.webBase;
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
