/**
 * Launch registration and links into the platform client.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class LaunchArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
