/**
 * `Client::SetTokenExpirationCallback`: tells the game when the client's token is about to expire
 * (or has), so it fetches a new one (`refreshToken`, or `getProvisionalToken` again for a
 * provisional account) and hands it to `updateToken`. The token's expiry is read from the
 * platform (`GET /oauth2/@me`, its `expires`) each time the token changes.
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { AuthorizationTokenType } from './enums.js';
import { SdkError } from './errors.js';

/** Called once per token, when it is about to expire or has expired. */
export type TokenExpirationCallback = () => void;

/** How long before its expiry a token is announced (at once when less remains). */
export const TOKEN_EXPIRY_NOTICE_MS = 5 * 60_000;
/** The longest delay a timer takes (2^31 - 1 ms); a later expiry re-arms it. */
const MAX_TIMER_MS = 2_147_483_647;

export class TokenExpiry {
  readonly #core: ClientCore;
  #callback: TokenExpirationCallback | null = null;
  #timer: ReturnType<typeof setTimeout> | null = null;
  /** Bumped on every change, so a lookup for an older token does nothing. */
  #generation = 0;

  constructor(core: ClientCore) {
    this.#core = core;
  }

  setCallback(callback: TokenExpirationCallback | null): void {
    this.#callback = callback;
    this.tokenChanged();
  }

  /** The client's token changed (`updateToken`): its expiry is looked up afresh. */
  tokenChanged(): void {
    this.#stop();
    const generation = ++this.#generation;
    const token = this.#core.token;
    // A bot token never expires; without a callback there is nobody to tell.
    if (this.#callback === null || token?.type !== AuthorizationTokenType.Bearer) return;
    void this.#lookup(generation);
  }

  #stop(): void {
    if (this.#timer !== null) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #lookup(generation: number): Promise<void> {
    let expires: string | null;
    try {
      ({ expires } = await this.#core.http.get<{ expires: string | null }>('/oauth2/@me'));
    } catch (error) {
      if (generation !== this.#generation) return;
      if (error instanceof SdkError && error.status === 401) {
        this.#core.logger.warn('The token was refused: it has expired or was revoked.');
        this.#fire(generation);
        return;
      }
      this.#core.logger.warn(`Could not read the token's expiry: ${String(error)}`);
      return;
    }
    if (generation !== this.#generation) return;
    const expiresAt = expires === null ? Number.NaN : Date.parse(expires);
    if (Number.isNaN(expiresAt)) {
      this.#core.logger.info('The token does not expire.');
      return;
    }
    this.#arm(generation, expiresAt - TOKEN_EXPIRY_NOTICE_MS);
  }

  #arm(generation: number, noticeAt: number): void {
    const delay = Math.max(0, noticeAt - Date.now());
    this.#core.logger.info(
      `The token expires at ${new Date(noticeAt + TOKEN_EXPIRY_NOTICE_MS).toISOString()}; the expiration callback runs in ${String(Math.ceil(delay / 1000))} s.`,
    );
    this.#timer = setTimeout(
      () => {
        this.#timer = null;
        if (noticeAt > Date.now()) this.#arm(generation, noticeAt);
        else this.#fire(generation);
      },
      Math.min(delay, MAX_TIMER_MS),
    );
    // In Node, a pending notice does not keep the process alive.
    (this.#timer as { unref?: () => void }).unref?.();
  }

  #fire(generation: number): void {
    if (generation !== this.#generation) return;
    this.#core.invoke(this.#callback);
  }
}
