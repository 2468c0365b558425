/**
 * Lobbies: create or join by secret, leave, lobby messages, linked channels.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class LobbiesArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
