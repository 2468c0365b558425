/** @module control/worldPeople: a world's people (accounts with a session) and relationships. */
import { RegisterBody } from '../resources/auth/index.js';
import { PutRelationshipBody } from '../resources/relationships/index.js';
import { bodyOf, principalOf, seeded, step, type WorldContext } from './worldSteps.js';
import type { ParsedWorld } from './worldSchema.js';
import type { LoadedPerson } from './worldTypes.js';

/** The address a person of a world gets when the world gives none. */
const WORLD_EMAIL_DOMAIN = 'world.guildhall.localhost';
/** POST /auth/register's rules, with the password optional: a person may sign in by links only. */
const WorldPersonBody = RegisterBody.extend({
  password: RegisterBody.shape.password.optional(),
});

/** Registers each person (POST /auth/register's rules) with a session token. */
export async function loadPeople(
  context: WorldContext,
  world: ParsedWorld,
): Promise<Record<string, LoadedPerson>> {
  const people: Record<string, LoadedPerson> = {};
  for (const [name, person] of Object.entries(world.people ?? {})) {
    const path = ['people', name];
    const username = person?.username ?? name.toLowerCase();
    const body = bodyOf(
      WorldPersonBody,
      {
        username,
        email: person?.email ?? `${username}@${WORLD_EMAIL_DOMAIN}`,
        ...(person?.password === undefined ? {} : { password: person.password }),
        ...(person?.global_name === undefined ? {} : { global_name: person.global_name }),
      },
      path,
    );
    const session = await step(path, () =>
      seeded(context, `person:${name}`, () =>
        context.app.services.auth.register({ ...body, password: body.password ?? null }),
      ),
    );
    people[name] = { id: session.user_id, username: body.username, token: session.token };
  }
  return people;
}

const FRIEND = 1;
const BLOCKED = 2;

/** Friend requests (sent, or sent and accepted) and blocks, as the people would PUT them. */
export async function loadRelationships(
  context: WorldContext,
  world: ParsedWorld,
  people: Record<string, LoadedPerson>,
): Promise<void> {
  const { app } = context;
  const actAs = (person: LoadedPerson) =>
    principalOf(app, person.id, { kind: 'session', value: person.token });
  for (const [index, relationship] of (world.relationships ?? []).entries()) {
    const path = ['relationships', index];
    const from = people[relationship.from];
    const to = people[relationship.to];
    if (from === undefined || to === undefined) continue;
    const put = async (actor: LoadedPerson, target: LoadedPerson, type: number) => {
      const body = bodyOf(PutRelationshipBody, { type }, path);
      await app.services.relationships.put(await actAs(actor), {
        targetId: target.id,
        body,
        scope: null,
      });
    };
    await step(path, () =>
      seeded(context, `relationship:${relationship.from}>${relationship.to}`, async () => {
        if (relationship.type === 'block') {
          await put(from, to, BLOCKED);
          return;
        }
        await put(from, to, FRIEND);
        // The other side accepts by sending its own request back.
        if (relationship.type === 'friend') await put(to, from, FRIEND);
      }),
    );
  }
}
