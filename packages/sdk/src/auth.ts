/**
 * Account linking and tokens: authorize (PKCE), getToken, provisional accounts, child tokens, revoke, unmerge, authorize requests.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class AuthArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
