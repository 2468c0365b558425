/**
 * Direct messages: send, edit, delete, summaries, and the local message cache.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class MessagesArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
