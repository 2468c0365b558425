/**
 * @module control/world: loading a world (a world file's people, guilds, applications…) into a
 * running server through its services, with ids and tokens that follow from a seed.
 */
import type { App } from '../appTypes.js';
import { loadApplications, loadCommandsAndEntitlements } from './worldApps.js';
import { parseWorld } from './worldFile.js';
import { loadGuilds } from './worldGuilds.js';
import { loadLobbies } from './worldLobbies.js';
import { loadPeople, loadRelationships } from './worldPeople.js';
import { checkWorldReferences } from './worldRefs.js';
import type { ParsedWorld, WorldFile } from './worldSchema.js';
import type { LoadedWorld, LoadWorldOptions } from './worldTypes.js';

export type { LoadWorldOptions } from './worldTypes.js';

/** The seed of a world that names none. */
export const DEFAULT_WORLD_SEED = 'guildhall';

/**
 * Creates everything a world names through the services (the same rules as the API), and
 * returns its ids and tokens by the world's names. The same world and seed give the same ids and
 * tokens in any process: each thing's ids and credentials follow from the seed and its name
 * (domain/seeded.ts), so adding a person leaves the others' ids as they were.
 *
 * Order: people, applications (settings, SKUs), guilds (roles, channels, bots, members),
 * commands and entitlements, relationships, lobbies.
 * @throws WorldError naming the path of a mistake: the schema's and dangling names are found
 *   before anything is made; a refusal of the API stops the load where it happened.
 */
export async function loadWorld(
  app: App,
  world: WorldFile | ParsedWorld,
  options: LoadWorldOptions = {},
): Promise<LoadedWorld> {
  const parsed = parseWorld(world);
  checkWorldReferences(parsed);
  const seed = options.seed ?? parsed.seed ?? DEFAULT_WORLD_SEED;
  const context = { app, seed };
  const people = await loadPeople(context, parsed);
  const applications = await loadApplications(context, parsed, people);
  const guilds = await loadGuilds(context, parsed, { people, applications });
  await loadCommandsAndEntitlements(context, parsed, { people, applications, guilds });
  await loadRelationships(context, parsed, people);
  const lobbies = await loadLobbies(context, parsed, { people, applications });
  return { seed, people, applications, guilds, lobbies };
}
