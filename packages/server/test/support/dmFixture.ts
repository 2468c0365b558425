/**
 * The DM route tests' server, per test on one driver: the message fixture's guild (owner, bot,
 * people who join it), plus people outside it, SDK Bearer tokens and provisional accounts made
 * through storage, and the requests the tests make.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { ERRORS, errorByCode } from '@guildhall/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { hashSecret } from '../../src/domain/credentials.js';
import { expandScopes } from '../../src/oauth/scopes.js';
import type { Driver } from './drivers.js';
import { uniqueName } from './fileServer.js';
import { useMessageFixture } from './messageFixtures.js';
import { expectOpenApiResponse } from './openapi.js';

export interface DmChannel {
  id: string;
  type: number;
  last_message_id: string | null;
  recipients: { id: string }[];
  application_id?: string;
  owner_id?: string;
}

/** A Bearer token of the application for the user, with these scopes (expanded), as OAuth2 grants it. */
export async function issueBearer(
  app: App,
  grant: { userId: string; applicationId: string; scopes: string[]; nowMs: number },
): Promise<string> {
  const token = randomBytes(24).toString('hex');
  await app.storage.tokens.create({
    hash: hashSecret(token),
    kind: 'bearer',
    userId: grant.userId,
    applicationId: grant.applicationId,
    scopes: expandScopes(grant.scopes),
    createdAt: grant.nowMs,
    expiresAt: null,
  });
  return `Bearer ${token}`;
}

/** Checks a refusal: its code, the catalogue's status, and openapi.json when documented. */
export function expectApiError(
  res: LightMyRequestResponse,
  code: number,
  documented?: [string, string],
): void {
  expect(res.json(), res.body).toMatchObject({ code });
  const name = errorByCode(code);
  expect(res.statusCode).toBe(name === undefined ? 0 : ERRORS[name].status);
  if (documented !== undefined) expectOpenApiResponse(res, documented[0], documented[1]);
}

export function useDmFixture(driver: Driver) {
  const fx = useMessageFixture(driver);
  let counter = 0;

  /** A person in no guild, named after `name` (made unique: uniqueName). */
  const outsider = async (name: string) => {
    const username = uniqueName(name);
    const session = await fx.server.app.services.auth.register({
      email: `${username}@example.test`,
      username,
      password: 'correct horse battery',
    });
    return { userId: session.user_id, token: session.token, username };
  };

  /** A Bearer token of the application for the user, with these scopes (expanded). */
  const bearer = (userId: string, applicationId: string, scopes = ['sdk.social_layer']) =>
    issueBearer(fx.server.app, { userId, applicationId, scopes, nowMs: fx.clock.now() });

  /** A provisional account of the application, with an SDK Bearer token. */
  const provisional = async (applicationId: string) => {
    counter += 1;
    const id = String(BigInt('900000000000000000') + BigInt(counter));
    await fx.server.app.storage.users.create({
      id,
      username: `provisional${String(counter)}`,
      createdAt: fx.clock.now(),
    });
    await fx.server.app.storage.provisional.createIdentity({
      applicationId,
      authType: 'OIDC',
      subject: `player-${String(counter)}`,
      userId: id,
      provisional: true,
      restrictedBy: null,
      createdAt: fx.clock.now(),
    });
    return { userId: id, token: await bearer(id, applicationId) };
  };

  /** Opens (or gets) the DM with `recipientId`, checked against openapi.json. */
  const openDm = async (auth: string, recipientId: string) => {
    const res = await fx.g.call('POST', '/users/@me/channels', {
      auth,
      payload: { recipient_id: recipientId },
    });
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'POST', '/users/@me/channels');
    return res.json<DmChannel>();
  };

  return { fx, outsider, bearer, provisional, openDm, expectError: expectApiError };
}
