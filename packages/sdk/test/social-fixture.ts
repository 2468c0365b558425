/**
 * Helpers of the users, relationships and presence tests: full accounts (a person registered on
 * the platform, who authorized the game with the Social SDK's scope), and waiting on clients.
 *
 * @module
 */
import { expandScopes } from '../../server/src/oauth/index.js';
import { uniqueName } from '../../server/test/support/fileServer.js';
import { SdkError, type Client, type ErrorType } from '../src/node.js';
import type { Player, SdkWorld } from './support.js';

/**
 * A registered person named after `name` (made unique: uniqueName; platform-wide friends are
 * theirs only) with an SDK token of the game.
 */
export async function fullPlayer(
  world: SdkWorld,
  name: string,
): Promise<Player & { session: string }> {
  const { app } = world.server;
  const username = uniqueName(name);
  const session = await app.services.auth.register({
    email: `${username}@example.test`,
    username,
    password: 'correct horse battery',
  });
  const tokens = await app.services.oauth.issueTokens({
    userId: session.user_id,
    applicationId: world.dev.applicationId,
    scopes: expandScopes(['sdk.social_layer']),
    refresh: false,
  });
  const me = await world.api<Player['user']>('GET', '/users/@me', {
    auth: `Bearer ${tokens.access_token}`,
  });
  return { id: session.user_id, token: tokens.access_token, user: me.body, session: session.token };
}

/** The SdkError a promise rejects with (fails when it resolves or throws something else). */
export async function sdkError(promise: Promise<unknown>): Promise<SdkError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof SdkError) return error;
    throw error;
  }
  throw new Error('expected the operation to fail');
}

/** The SdkError a synchronous call throws. */
export function thrown(call: () => unknown): SdkError {
  try {
    call();
  } catch (error) {
    if (error instanceof SdkError) return error;
    throw error;
  }
  throw new Error('expected the call to throw');
}

/** `{type, status, code}` of an error, to compare in one expectation. */
export function shape(error: SdkError): { type: ErrorType; status: number; code: number } {
  return { type: error.type, status: error.status, code: error.code };
}

/** The ids of a client's friends in each group, in order. */
export function groups(client: Client): string[][] {
  return [0, 1, 2].map((group) =>
    client.getRelationshipsByGroup(group as 0 | 1 | 2).map((r) => r.id()),
  );
}
