/**
 * Two games on the gateway fixture's server, and what the tests of joining, requesting to join
 * and spectating a party need around them: a player's SDK token for a game, a friendship stored
 * both ways, and a host whose op 3 activity the server holds before the test goes on.
 *
 * @module
 */
import { beforeEach, expect } from 'vitest';
import { expandScopes } from '../../src/oauth/index.js';
import { useGatewayFixture } from './gatewayFixture.js';
import { uniqueName } from './fileServer.js';
import { apiRequest } from './inject.js';
import { seedDeveloper } from './testServer.js';

export type GameSeed = Awaited<ReturnType<typeof seedDeveloper>>;

/** An activity of the test game in party `partyId` (of 4) with `secrets`. */
export function tinyTanks(
  partyId: string,
  privacy: number,
  secrets: Record<string, string>,
): Record<string, unknown> {
  return { name: 'Tiny Tanks', type: 0, party: { id: partyId, size: [1, 4], privacy }, secrets };
}

/** The gateway fixture with a game and another game seeded before each test. */
export function useActivityGames(driver: 'sqlite' | 'postgres') {
  const gw = useGatewayFixture({ driver });
  let seeds: { game: GameSeed; other: GameSeed } | undefined;
  beforeEach(async () => {
    seeds = {
      game: await seedDeveloper(gw.server.app, uniqueName('game')),
      other: await seedDeveloper(gw.server.app, uniqueName('othergame')),
    };
  });
  const seeded = () => {
    if (seeds === undefined) throw new Error('no games: outside a test');
    return seeds;
  };

  /** An access token of `userId` for `app` (the game unless said) with these scopes. */
  const accessToken = async (userId: string, app?: GameSeed, scopes = ['sdk.social_layer']) =>
    (
      await gw.server.app.services.oauth.issueTokens({
        userId,
        applicationId: (app ?? seeded().game).applicationId,
        scopes: expandScopes(scopes),
        refresh: false,
      })
    ).access_token;

  /** Makes `a` and `b` friends, stored both ways. */
  const befriend = async (a: string, b: string) => {
    const since = gw.clock.now();
    const row = { applicationId: null, type: 1 as const, nickname: null, isSpamRequest: false };
    const { relationships } = gw.server.app.storage;
    await relationships.put({ ...row, userId: a, targetId: b, since });
    await relationships.put({ ...row, userId: b, targetId: a, since });
  };

  /** `POST /users/@me/activities/{partyId}/{route}` (`join`, `spectate`) with `payload`. */
  const partyRequest = (
    route: string,
    partyId: string,
    request: { auth: string; payload: Record<string, unknown> },
  ) => apiRequest(gw.server.app, `POST /users/@me/activities/${partyId}/${route}`, request);

  /**
   * A new member "host" whose game session sets `activities` (op 3), returned once the server
   * holds them: op 3 is stored a moment after it is sent, so a third user asks `route` (`join`,
   * `spectate`) of party-1 until the answer is no longer 50039.
   */
  const host = async (activities: readonly Record<string, unknown>[], route: string) => {
    const person = await gw.guild.join('host');
    const { client } = await gw.identify({ token: await accessToken(person.userId) });
    client.send(3, { status: 'online', since: null, afk: false, activities });
    const probe = `Bearer ${await accessToken((await gw.guild.join('probe')).userId)}`;
    await expect
      .poll(
        async () =>
          (
            await partyRequest(route, 'party-1', {
              auth: probe,
              payload: { user_id: person.userId },
            })
          ).json<{
            code?: number;
          }>().code,
      )
      .not.toBe(50039);
    return { ...person, game: client };
  };

  return {
    gw,
    get game() {
      return seeded().game;
    },
    get other() {
      return seeded().other;
    },
    accessToken,
    befriend,
    partyRequest,
    host,
  };
}
