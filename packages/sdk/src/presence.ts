/**
 * Rich presence and activity invites: Activity and its parts, updateRichPresence, invites and joins.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class PresenceArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
