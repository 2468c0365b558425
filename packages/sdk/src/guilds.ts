/**
 * Guilds for linked channels: the user's guilds and a guild's channels, sorted as the platform client sorts them.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class GuildsArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
