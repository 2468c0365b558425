/**
 * Helpers for the message, attachment, reaction and pin tests: the guild's text channel,
 * multipart bodies and permission overwrites; and the fixture of the message
 * route tests.
 *
 * @module
 */
import { ERRORS, errorByCode, PermissionFlags as P } from '@guildhall/protocol';
import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import type { Driver } from './drivers.js';
import { guildFixture, type GuildFixture } from './guildMembers.js';
import { expectOpenApiResponse } from './openapi.js';
import { advanceToNextTest, perTest, sharedClock, useFileServer } from './fileServer.js';
import { apiRequest } from './inject.js';

/** The guild's first text channel. */
export async function firstChannelId(app: App, guildId: string): Promise<string> {
  const [channel] = await app.storage.channels.listByGuild(guildId);
  if (channel === undefined) throw new Error('the fixture guild has no channel');
  return channel.id;
}

/** Denies (or allows) bits to one member in one channel. */
export async function overwrite(
  app: App,
  target: { channelId: string; userId: string; allow?: bigint; deny?: bigint },
): Promise<void> {
  await app.storage.overwrites.put({
    channelId: target.channelId,
    targetId: target.userId,
    type: 1,
    allow: target.allow ?? 0n,
    deny: target.deny ?? 0n,
  });
}

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer | string;
}

/** A multipart/form-data body with payload_json and files, for app.http.inject. */
export async function multipartBody(
  payload: unknown,
  files: readonly FilePart[],
): Promise<{ body: Buffer; contentType: string }> {
  const form = new FormData();
  if (payload !== undefined) form.append('payload_json', JSON.stringify(payload));
  for (const file of files) {
    const bytes = typeof file.data === 'string' ? Buffer.from(file.data) : file.data;
    form.append(file.field, new Blob([bytes], { type: file.contentType }), file.filename);
  }
  const request = new Request('http://localhost/', { method: 'POST', body: form });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

/** Sends a multipart request to /api/v10. */
export async function sendMultipart(
  app: App,
  request: {
    method: 'POST' | 'PATCH';
    path: string;
    auth: string;
    payload?: unknown;
    files: FilePart[];
  },
) {
  const { body, contentType } = await multipartBody(request.payload, request.files);
  return apiRequest(app, `${request.method} ${request.path}`, {
    auth: request.auth,
    headers: { 'content-type': contentType },
    payload: body,
  });
}

/** A message as the routes answer it (the fields the tests read). */
export interface WireMessage {
  id: string;
  type: number;
  content: string;
  flags: number;
  tts: boolean;
  mention_everyone: boolean;
  mentions: { id: string }[];
  mention_roles: string[];
  embeds: unknown[];
  edited_timestamp: string | null;
  message_reference?: { type: number; message_id: string; channel_id: string };
  referenced_message?: WireMessage | null;
  message_snapshots?: { message: { content: string } }[];
  nonce?: string;
}

/** After the dated permission splits (February 23, 2026): the message fixture's start. */
export const AFTER_SPLIT = Date.UTC(2026, 5, 1);

/**
 * The message route tests' server, per driver (the worker's files share it), and per test a guild whose bot holds
 * MANAGE_MESSAGES, its text channel, and the requests the tests make; read its fields in tests.
 */
export function useMessageFixture(driver: Driver) {
  const clock = sharedClock(`message:${driver}`, AFTER_SPLIT);
  const shared = useFileServer({ storage: driver, clock }, 'message');
  const current = perTest(async () => {
    advanceToNextTest(clock, AFTER_SPLIT);
    const { server } = shared;
    const g = await guildFixture(server, {
      botPermissions: P.MANAGE_MESSAGES,
      nowMs: () => clock.now(),
    });
    return { server, g, channelId: await firstChannelId(server.app, g.guildId) };
  });

  const url = (suffix = '') => `/channels/${current().channelId}/messages${suffix}`;
  const post = (auth: string, payload: unknown) =>
    current().g.call('POST', url(), { auth, payload });
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
    /** The channel's messages URL, with `suffix`. */
    url,
    post,
    /** Posts a message that must be accepted, checked against openapi.json. */
    send: async (auth: string, payload: unknown) => {
      const res = await post(auth, payload);
      expect(res.statusCode, res.body).toBe(200);
      expectOpenApiResponse(res, 'POST', url());
      return res.json<WireMessage>();
    },
    /** Checks a refusal: its code, the catalogue's status for it, and openapi.json. */
    expectError: (
      res: Awaited<ReturnType<GuildFixture['call']>>,
      code: number,
      [method, path]: [string, string],
    ) => {
      expect(res.json(), res.body).toMatchObject({ code });
      const name = errorByCode(code);
      expect(res.statusCode).toBe(name === undefined ? 0 : ERRORS[name].status);
      expectOpenApiResponse(res, method, path);
    },
  };
}
