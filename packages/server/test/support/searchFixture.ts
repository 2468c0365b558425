/**
 * The message search test fixture: a server per driver (the worker's files share it), and per test a guild whose bot may
 * read the general channel (and holds MESSAGE_CONTENT), messages stored straight through the
 * repositories, and the search requests the tests make, each answer checked against the spec.
 *
 * @module
 */
import { ApplicationFlags, PLATFORM_EPOCH_MS, PermissionFlags as P } from '@guildhall/protocol';
import { expect } from 'vitest';
import type { AttachmentRecord, NewMessage } from '../../src/storage/index.js';
import type { Driver } from './drivers.js';
import { guildFixture } from './guildMembers.js';
import { expectOpenApiResponse } from './openapi.js';
import { perTest, useFileServer } from './fileServer.js';

export interface SearchBody {
  doing_deep_historical_index: boolean;
  total_results: number;
  messages: { id: string; content: string; hit: boolean; reactions?: unknown }[][];
  threads: unknown[];
  members: unknown[];
}

export type Query = Record<string, string | number | boolean | readonly (string | number)[]>;

/**
 * A query string with repeated keys for arrays (docs/platform-notes.md#versions-and-query-strings).
 */
function queryString(query: Query): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(key, String(item));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

/**
 * The worker and process bits of the ids the fixture makes for the rows it stores itself: 31 and
 * 31, which no test server mints with (SQLite's mint with 0 and 0), so none of them is an id a
 * server on the shared `api` server gives a later file's row.
 */
const FIXTURE_ID_BITS = (31n << 17n) | (31n << 12n);

/**
 * Registers the server of one driver and each test's guild; read its fields inside tests. The
 * server is the worker's `api` one; `own`: a server of the file's own, for tests that make it
 * listen or read what is pending across all its guilds.
 */
export function useSearchFixture(driver: Driver, { own = false }: { own?: boolean } = {}) {
  const shared = useFileServer({ storage: driver }, own ? undefined : 'api');
  let nextId = 0n;
  /** The next id of the fixture's: rising with `nextId` (ms << 22, and an increment). */
  const idOf = (next: bigint) => (next | FIXTURE_ID_BITS).toString();
  const current = perTest(async () => {
    const { server } = shared;
    const g = await guildFixture(server, {
      botPermissions: P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY | P.SEND_MESSAGES,
    });
    await server.app.storage.applications.update(g.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT,
    });
    const [channel] = await server.app.storage.channels.listByGuild(g.guildId);
    // Snowflake-shaped, rising: (ms since the platform epoch) << 22, past the last test's.
    const now = BigInt(Date.now() - PLATFORM_EPOCH_MS) << 22n;
    nextId = nextId > now ? nextId : now;
    return { server, g, general: channel?.id ?? '' };
  });

  const searchUrl = (query: Query = {}) =>
    `/guilds/${current().g.guildId}/messages/search${queryString(query)}`;

  /** Stores a message (all the fields search reads) and returns its id. */
  const post = async (
    fields: Partial<Omit<NewMessage, 'attachments'>> & {
      attachments?: Omit<AttachmentRecord, 'messageId'>[];
    } = {},
  ) => {
    nextId += 1n << 22n;
    const id = idOf(nextId);
    const channelId = fields.channelId ?? current().general;
    await current().server.app.storage.messages.create({
      id,
      channelId,
      guildId: current().g.guildId,
      authorId: current().g.owner.userId,
      type: 0,
      content: '',
      embeds: [],
      flags: 0,
      tts: false,
      mentionEveryone: false,
      mentionUserIds: [],
      mentionRoleIds: [],
      reference: null,
      snapshots: null,
      nonce: null,
      applicationId: null,
      webhookId: null,
      createdAt: Date.now(),
      ...fields,
      attachments: (fields.attachments ?? []).map((a) => ({ ...a, messageId: id, channelId })),
    });
    return id;
  };

  const attachment = (filename: string, contentType: string) => {
    nextId += 1n;
    return {
      id: idOf(nextId),
      channelId: current().general,
      position: 0,
      filename,
      description: null,
      contentType,
      size: 10,
      flags: 0,
      title: null,
    };
  };

  const addChannel = async (name: string, nsfw = false) => {
    nextId += 1n << 22n;
    const channel = await current().server.app.storage.channels.create({
      id: idOf(nextId),
      guildId: current().g.guildId,
      type: 0,
      name,
      position: 1,
      parentId: null,
      topic: null,
      nsfw,
      rateLimitPerUser: 0,
      bitrate: null,
      userLimit: null,
      flags: 0,
      lastMessageId: null,
      createdAt: Date.now(),
    });
    return channel.id;
  };

  const search = async (query: Query = {}, auth = current().g.bot.token) => {
    const res = await current().g.call('GET', searchUrl(query), auth);
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'GET', searchUrl(query));
    return res.json<SearchBody>();
  };
  const ids = async (query: Query = {}, auth = current().g.bot.token) =>
    (await search(query, auth)).messages.map(([message]) => message?.id);
  const refused = async (query: Query, code: number, auth = current().g.bot.token) => {
    const res = await current().g.call('GET', searchUrl(query), auth);
    expect(res.json(), JSON.stringify(query)).toMatchObject({ code });
    expectOpenApiResponse(res, 'GET', searchUrl(query));
    return res;
  };

  return {
    get server() {
      return current().server;
    },
    get g() {
      return current().g;
    },
    /** The general channel's id. */
    get general() {
      return current().general;
    },
    searchUrl,
    post,
    attachment,
    addChannel,
    search,
    ids,
    refused,
  };
}
