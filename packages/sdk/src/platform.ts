/**
 * What differs between the browser and Node: the WebSocket, how a URL is opened for the person,
 * how an OAuth2 authorization's redirect comes back, and launch registration. `browser.ts` and
 * `node.ts` each install theirs as the default; `ClientOptions.platform` replaces any part.
 *
 * @module
 */
import { ErrorType } from './enums.js';
import { SdkError } from './errors.js';
import type { WebSocketConstructor } from './gateway.js';
import type { Logger } from './log.js';
import type { VoiceModule } from './voiceTransport.js';

/** One OAuth2 authorization to run in the person's browser. */
export interface AuthorizeRedirectRequest {
  /** The authorize page's URL for a redirect URI (the platform picks the URI). */
  authorizeUrl: (redirectUri: string) => string;
  /** The `state` sent; the redirect must bring it back unchanged. */
  state: string;
  /** A redirect URI the game chose (ClientOptions.redirectUri), else the platform's default. */
  redirectUri: string | null;
  /** Shows the authorize page to the person (the client's `platform.openUrl`). */
  open: (url: string) => Promise<void>;
  /** Aborted by `abortAuthorize()`: the platform stops waiting and releases what it holds. */
  signal: AbortSignal;
  logger: Logger;
}

/** The redirect's answer: the code and the exact redirect URI the token request must repeat. */
export interface AuthorizeRedirectResult {
  code: string;
  redirectUri: string;
}

export interface Platform {
  readonly name: string;
  /**
   * How long `authorize()` waits for the person (ms): the listener or the popup is closed after
   * it. Default 600000, the lifetime of an authorization code.
   */
  readonly authorizeTimeoutMs: number;
  readonly WebSocket: WebSocketConstructor;
  /** Shows a URL to the person (a new tab; in Node, the `openUrl` option or a log line). */
  openUrl(url: string, logger: Logger): Promise<void>;
  /** Runs the person's part of an authorization and resolves with the redirect's code. */
  authorizeRedirect(request: AuthorizeRedirectRequest): Promise<AuthorizeRedirectResult>;
  /**
   * Registers how the platform launches the game for an application (a URL scheme handler);
   * false when this platform cannot register one.
   */
  registerLaunch(applicationId: string, command: string, logger: Logger): Promise<boolean>;
  /**
   * Why this platform has no voice (the browser build: no UDP in a page), or null when it has
   * (Node). Voice operations reject with `VoiceNotAvailableError` carrying it.
   */
  readonly voiceUnavailable: string | null;
  /** Loads the voice connection and the Opus codec (Node: `platform/nodeVoice.ts`, on first use). */
  loadVoice(): Promise<VoiceModule>;
}

/** Ten minutes: an authorization code lives no longer. */
export const DEFAULT_AUTHORIZE_TIMEOUT_MS = 600_000;

let defaultPlatform: Platform | null = null;

/** Installed by the entry point (`browser.ts`, `node.ts`). */
export function setDefaultPlatform(platform: Platform): void {
  defaultPlatform = platform;
}

export function resolvePlatform(overrides: Partial<Platform> | undefined): Platform {
  if (defaultPlatform === null) {
    throw new Error(
      'No platform: import the SDK through its package entry ("@guildhall/social-sdk" picks the Node or the browser build).',
    );
  }
  return { ...defaultPlatform, ...overrides };
}

/** An authorize ended by abortAuthorize() (or its signal). */
export function authorizeAborted(): SdkError {
  return new SdkError('authorize was aborted.', { type: ErrorType.Aborted });
}

/** An authorize nobody completed in time. */
export function authorizeTimedOut(timeoutMs: number): SdkError {
  return new SdkError(
    `authorize: nobody completed the authorization within ${Math.round(timeoutMs / 1000)} s; call authorize() again.`,
    { type: ErrorType.Aborted },
  );
}
