/**
 * The account-linking flows in which the person approves in a browser (auth.ts): `authorize()`'s
 * authorize page and redirect back, and the device flow (RFC 8628), which polls the token
 * endpoint until the person approves on another device; each can be aborted while under way.
 *
 * @module
 */
import { ErrorType } from './enums.js';
import { SdkError, validationError } from './errors.js';
import type { ClientCore } from './core.js';
import { AuthorizationArgs, DeviceAuthorizationArgs, randomToken } from './authArgs.js';
import { oauthPost, tokenGrant, type TokenExchange } from './authTokens.js';

/** The device grant's own `grant_type` (RFC 8628). */
const DEVICE_CODE_GRANT = 'urn:ietf:params:oauth:grant-type:device_code';
/** RFC 8628 §3.5: each `slow_down` adds five seconds to the interval. */
const SLOW_DOWN_STEP_MS = 5000;

/** What `authorize()` resolves with: the code and the redirect URI `getToken` must repeat. */
export interface AuthorizeResult {
  readonly code: string;
  readonly redirectUri: string;
}

interface WireDeviceAuthorization {
  device_code: string;
  user_code: string;
  verification_uri: string;
  verification_uri_complete?: string;
  expires_in: number;
  interval?: number;
}

function abortedError(operation: string): SdkError {
  return new SdkError(`${operation} was aborted.`, { type: ErrorType.Aborted });
}

/** Waits `ms`, or rejects as soon as the signal aborts. */
function wait(ms: number, signal: AbortSignal, operation: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(abortedError(operation));
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortedError(operation));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** `authorize()`: one authorization at a time, through the platform's redirect. */
export class AuthorizeFlow {
  readonly #core: ClientCore;
  /** The redirect URI of ClientOptions.redirectUri, or null for the platform's default. */
  readonly #redirectUri: string | null;
  #authorizing: AbortController | null = null;

  constructor(core: ClientCore, redirectUri: string | null) {
    this.#core = core;
    this.#redirectUri = redirectUri;
  }

  /**
   * Runs the person's part of OAuth2 in their browser: the authorize page, then the redirect
   * back (a loopback listener in Node, a popup and `completeAuthorize()` in a browser).
   */
  async run(args: AuthorizationArgs): Promise<AuthorizeResult> {
    const op = 'authorize';
    if (!(args instanceof AuthorizationArgs)) {
      throw validationError(`${op}: pass an AuthorizationArgs.`);
    }
    if (args.scopes() === '') {
      throw validationError(
        `${op}: AuthorizationArgs has no scopes; call setScopes(client.getDefaultCommunicationScopes()).`,
      );
    }
    if (args.customSchemeParam() !== null) {
      throw validationError(
        `${op}: customSchemeParam is for mobile apps; on ${this.#core.platform.name} the redirect comes back to ${this.#core.platform.name === 'node' ? 'a loopback listener' : 'your callback page'}. Leave it unset.`,
      );
    }
    if (this.#authorizing !== null) {
      throw validationError(
        `${op}: an authorization is already under way; abortAuthorize() ends it.`,
      );
    }
    const clientId = args.clientId() ?? this.#core.requireApplicationId(op);
    const state = args.state() ?? randomToken(16);
    const controller = new AbortController();
    this.#authorizing = controller;
    const query = (redirectUri: string) => {
      const params = new URLSearchParams({
        response_type: 'code',
        client_id: clientId,
        scope: args.scopes(),
        state,
        redirect_uri: redirectUri,
      });
      const challenge = args.codeChallenge();
      if (challenge !== null) {
        params.set('code_challenge', challenge.challenge());
        params.set('code_challenge_method', 'S256');
      }
      const nonce = args.nonce();
      if (nonce !== null) params.set('nonce', nonce);
      const integrationType = args.integrationType();
      if (integrationType !== null) params.set('integration_type', String(integrationType));
      return `${this.#core.webBase}/oauth2/authorize?${params.toString()}`;
    };
    try {
      const result = await this.#core.platform.authorizeRedirect({
        authorizeUrl: query,
        state,
        redirectUri: this.#redirectUri,
        open: (url) => this.#core.platform.openUrl(url, this.#core.logger),
        signal: controller.signal,
        logger: this.#core.logger,
      });
      this.#core.logger.secret(result.code);
      this.#core.logger.info('Authorized: exchange the code with getToken().');
      return result;
    } finally {
      if (this.#authorizing === controller) this.#authorizing = null;
    }
  }

  /** Ends a pending `authorize()`: it rejects with ErrorType.Aborted. */
  abort(): void {
    const pending = this.#authorizing;
    this.#authorizing = null;
    pending?.abort();
  }
}

/** The device flow: one at a time, polled at the interval the server asks for. */
export class DeviceFlow {
  readonly #core: ClientCore;
  #deviceFlow: AbortController | null = null;

  constructor(core: ClientCore) {
    this.#core = core;
  }

  /** Ends a pending `getTokenFromDevice()`: it rejects with ErrorType.Aborted. */
  abort(): void {
    const pending = this.#deviceFlow;
    this.#deviceFlow = null;
    pending?.abort();
  }

  async run(
    op: string,
    args: DeviceAuthorizationArgs,
    extra: Record<string, string> = {},
  ): Promise<TokenExchange> {
    if (!(args instanceof DeviceAuthorizationArgs)) {
      throw validationError(`${op}: pass a DeviceAuthorizationArgs.`);
    }
    if (args.scopes() === '') {
      throw validationError(`${op}: DeviceAuthorizationArgs has no scopes; call setScopes().`);
    }
    if (this.#deviceFlow !== null) {
      throw validationError(
        `${op}: a device authorization is already under way; abortGetTokenFromDevice() ends it.`,
      );
    }
    const clientId = args.clientId() ?? this.#core.requireApplicationId(op);
    const controller = new AbortController();
    this.#deviceFlow = controller;
    try {
      const device = await oauthPost<WireDeviceAuthorization>(this.#core, op, {
        path: '/oauth2/device/authorize',
        form: {
          client_id: clientId,
          scope: args.scopes(),
        },
      });
      this.#core.logger.secret(device.device_code);
      this.#core.logger.info(
        `To link your account, open ${device.verification_uri} and enter the code ${device.user_code}.`,
      );
      await this.#core.platform.openUrl(
        device.verification_uri_complete ?? device.verification_uri,
        this.#core.logger,
      );
      let intervalMs = (device.interval ?? 5) * 1000;
      const deadline = Date.now() + device.expires_in * 1000;
      for (;;) {
        await wait(intervalMs, controller.signal, op);
        if (Date.now() > deadline) {
          throw new SdkError(
            `${op}: the device code expired before it was approved; start again.`,
            {
              type: ErrorType.AuthorizationFailed,
              oauthError: 'expired_token',
            },
          );
        }
        try {
          return await tokenGrant(this.#core, op, {
            grant_type: DEVICE_CODE_GRANT,
            client_id: clientId,
            device_code: device.device_code,
            ...extra,
          });
        } catch (error) {
          if (controller.signal.aborted) throw abortedError(op);
          if (!(error instanceof SdkError)) throw error;
          if (error.oauthError === 'authorization_pending') continue;
          if (error.oauthError === 'slow_down') {
            intervalMs += SLOW_DOWN_STEP_MS;
            continue;
          }
          throw error;
        }
      }
    } finally {
      if (this.#deviceFlow === controller) this.#deviceFlow = null;
    }
  }
}
