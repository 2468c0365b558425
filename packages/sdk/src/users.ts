/**
 * Users: the current user, UserHandle, user application profiles.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class UsersArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
