/** @module control/worldLobbies: a world's lobbies, made by their applications' bots. */
import { CreateLobbyBody } from '../resources/lobbies/index.js';
import type { ParsedWorld } from './worldSchema.js';
import { bodyOf, principalOf, seeded, step, type WorldContext } from './worldSteps.js';
import type { LoadedApplication, LoadedLobby, LoadedPerson } from './worldTypes.js';

/** POST /lobbies as each lobby's application, with its members. */
export async function loadLobbies(
  context: WorldContext,
  world: ParsedWorld,
  loaded: {
    people: Record<string, LoadedPerson>;
    applications: Record<string, LoadedApplication>;
  },
): Promise<Record<string, LoadedLobby>> {
  const lobbies: Record<string, LoadedLobby> = {};
  for (const [name, lobby] of Object.entries(world.lobbies ?? {})) {
    const path = ['lobbies', name];
    const application = loaded.applications[lobby.application];
    if (application === undefined) continue;
    const bot = await principalOf(context.app, application.botUserId, {
      kind: 'bot',
      value: application.botToken,
      applicationId: application.id,
    });
    const members = Object.entries(lobby.members ?? {}).map(([member, settings]) => ({
      id: loaded.people[member]?.id,
      ...settings,
    }));
    const body = bodyOf(
      CreateLobbyBody,
      {
        members,
        ...(lobby.metadata === undefined ? {} : { metadata: lobby.metadata }),
        ...(lobby.idle_timeout_seconds === undefined
          ? {}
          : { idle_timeout_seconds: lobby.idle_timeout_seconds }),
      },
      path,
    );
    const created = await step(path, () =>
      seeded(context, `lobby:${name}`, () => context.app.services.lobbies.create(bot, body)),
    );
    lobbies[name] = { id: created.id };
  }
  return lobbies;
}
