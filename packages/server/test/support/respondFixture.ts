/**
 * The interaction response tests' server, per driver (the worker's files share it), and per test a guild with the
 * app's bot and a member, interactions as POST /interactions stores them (made here through storage with a
 * known token, so a test picks each field), and the requests an app makes to answer them.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { ERRORS, errorByCode, PermissionFlags as P } from '@guildhall/protocol';
import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { createSnowflakeGenerator } from '../../src/domain/snowflakes.js';
import { hashSecret } from '../../src/domain/credentials.js';
import type { InteractionRecord, NewInteraction } from '../../src/storage/index.js';
import type { Driver } from './drivers.js';
import { guildFixture } from './guildMembers.js';
import { AFTER_SPLIT, firstChannelId, multipartBody, type FilePart } from './messageFixtures.js';
import { recordDispatches } from './dispatchRecorder.js';
import { expectOpenApiResponse } from './openapi.js';
import { perTest, sharedClock, useFileServer, workerValue } from './fileServer.js';
import { apiRequest } from './inject.js';

/** An interaction a test made: its record and its token. */
export interface SeededInteraction {
  id: string;
  token: string;
  record: NewInteraction;
}

/** The kinds of interaction {@link useInteractionFixture}'s `seed` makes. */
export type SeedKind =
  | { type: 2; commandType?: 1 | 2 | 3; targetId?: string; options?: unknown[] }
  | { type: 3; messageId: string; customId?: string }
  | { type: 4; options: unknown[] }
  | { type: 5; customId: string; fromMessageId?: string };

export function useRespondFixture(driver: Driver) {
  const clock = sharedClock(`respond:${driver}`, AFTER_SPLIT);
  // A worker of its own: these ids never meet the server's.
  // The ids of interactions it stores itself: one generator per worker, as the server is.
  const nextId = workerValue(`respond ids:${driver}`, () =>
    createSnowflakeGenerator({ clock, workerId: 29 }),
  );
  const shared = useFileServer({ storage: driver, clock }, 'respond');
  const current = perTest(
    async () => {
      clock.set(AFTER_SPLIT);
      const { server } = shared;
      const g = await guildFixture(server, {
        botPermissions: P.SEND_MESSAGES | P.VIEW_CHANNEL,
        nowMs: () => clock.now(),
      });
      const member = await g.join('ann');
      const me = await g.call('GET', '/users/@me', member.token);
      return {
        server,
        g,
        channelId: await firstChannelId(server.app, g.guildId),
        member,
        /** The member as GET /users/@me answers: interactions carry this user object. */
        memberUser: me.json<Record<string, unknown>>(),
        dispatches: await recordDispatches(server.app),
      };
    },
    ({ dispatches }) => {
      dispatches.stop();
    },
  );

  /** Stores an interaction of `kind` by the member, unanswered, made now. */
  async function seed(kind: SeedKind): Promise<SeededInteraction> {
    const { server, g, channelId, member } = current();
    const id = nextId();
    const token = `itok.${randomBytes(24).toString('base64url')}`;
    const now = clock.now();
    const data: Record<string, unknown> =
      kind.type === 2
        ? {
            id: nextId(),
            name: 'ping',
            type: kind.commandType ?? 1,
            ...(kind.targetId === undefined
              ? { options: kind.options ?? [] }
              : {
                  target_id: kind.targetId,
                  resolved: { users: { [kind.targetId]: { id: kind.targetId, username: 'x' } } },
                }),
          }
        : kind.type === 3
          ? { custom_id: kind.customId ?? 'go', component_type: 2 }
          : kind.type === 4
            ? { id: nextId(), name: 'pick', type: 1, options: kind.options }
            : { custom_id: kind.customId, components: [] };
    const record: NewInteraction = {
      id,
      applicationId: g.bot.applicationId,
      type: kind.type,
      tokenHash: hashSecret(token),
      userId: member.userId,
      guildId: g.guildId,
      channelId,
      messageId: kind.type === 3 ? kind.messageId : null,
      nonce: `nonce-${id}`,
      triggeringMetadata: null,
      payload: {
        id,
        application_id: g.bot.applicationId,
        type: kind.type,
        data,
        guild_id: g.guildId,
        channel_id: channelId,
        member: { user: current().memberUser, roles: [], permissions: '0' },
        authorizing_integration_owners: { '0': g.guildId },
        ...(kind.type === 5 && kind.fromMessageId !== undefined
          ? { message: { id: kind.fromMessageId } }
          : {}),
        version: 1,
      },
      createdAt: now,
      ackDeadlineAt: now + 3_000,
      expiresAt: now + 15 * 60_000,
    };
    await server.app.storage.interactions.create(record);
    return { id, token, record };
  }

  /** POST /interactions/{id}/{token}/callback, JSON or multipart (with `files`). */
  async function callback(
    interaction: Pick<SeededInteraction, 'id' | 'token'>,
    body: unknown,
    options: { query?: string; files?: FilePart[] } = {},
  ): Promise<LightMyRequestResponse> {
    const route = `POST /interactions/${interaction.id}/${interaction.token}/callback${options.query ?? ''}`;
    const { app } = current().server;
    if (options.files === undefined) return apiRequest(app, route, { payload: body });
    const form = await multipartBody(body, options.files);
    return apiRequest(app, route, {
      headers: { 'content-type': form.contentType },
      payload: form.body,
    });
  }

  /** A request to /api/v10 without Authorization (the webhook token routes). */
  function tokenRoute(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    payload?: unknown,
  ) {
    return apiRequest(current().server.app, `${method} ${path}`, { payload });
  }

  return {
    clock,
    get server() {
      return current().server;
    },
    get g() {
      return current().g;
    },
    get channelId() {
      return current().channelId;
    },
    get member() {
      return current().member;
    },
    get dispatches() {
      return current().dispatches;
    },
    seed,
    callback,
    tokenRoute,
    /** The interaction as stored now. */
    async stored(id: string): Promise<InteractionRecord | null> {
      return current().server.app.storage.interactions.findById(id);
    },
    /** The channel's messages as the owner reads them (ephemeral ones never show). */
    async channelMessages(): Promise<{ id: string; content: string }[]> {
      const { g, channelId } = current();
      const res = await g.call('GET', `/channels/${channelId}/messages`, g.owner.token);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    },
    /** Checks a refusal: its code, the catalogue's status for it, and openapi.json. */
    expectError(res: LightMyRequestResponse, code: number, [method, path]: [string, string]) {
      expect(res.json(), res.body).toMatchObject({ code });
      const name = errorByCode(code);
      expect(res.statusCode).toBe(name === undefined ? 0 : ERRORS[name].status);
      expectOpenApiResponse(res, method, path);
    },
  };
}
