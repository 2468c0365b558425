/**
 * Voice: the types of calls and voice settings; every operation rejects until voice lands.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class VoiceArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
