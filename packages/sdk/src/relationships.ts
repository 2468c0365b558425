/**
 * Relationships: friends (platform-wide and in-game), requests, blocks, and the grouped friends list.
 *
 * @module
 */
import type { ClientCore } from './core.js';

export class RelationshipsArea {
  protected readonly core: ClientCore;

  constructor(core: ClientCore) {
    this.core = core;
  }
}
