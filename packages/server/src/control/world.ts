/**
 * @module control/world: loading a world (a world file's people, guilds, applications…) into a
 * running server through its services, with ids and tokens that follow from a seed.
 */
import type { App } from '../appTypes.js';
import { parseWorld } from './worldFile.js';
import type { ParsedWorld, WorldFile } from './worldSchema.js';
import type { LoadedWorld } from './worldTypes.js';

export interface LoadWorldOptions {
  /** Overrides the world's own `seed` (default "guildhall"). */
  seed?: string;
}

/** The seed of a world that names none. */
export const DEFAULT_WORLD_SEED = 'guildhall';

/**
 * Creates everything a world names through the services (the same rules as the API), and
 * returns its ids and tokens by the world's names. The same world and seed give the same ids and
 * tokens in any process.
 * @throws WorldError naming the path of a mistake in the world (checked before anything is made).
 */
export function loadWorld(
  app: App,
  world: WorldFile | ParsedWorld,
  options: LoadWorldOptions = {},
): Promise<LoadedWorld> {
  const parsed = parseWorld(world);
  const seed = options.seed ?? parsed.seed ?? DEFAULT_WORLD_SEED;
  return Promise.reject(new Error(`loading worlds (${seed}, ${app.baseUrl()}) lands next`));
}
