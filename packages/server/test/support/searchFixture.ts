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

/** Registers the server of one driver and each test's guild; read its fields inside tests. */
export function useSearchFixture(driver: Driver) {
  const shared = useFileServer({ storage: driver }, 'api');
  let nextId = 0n;
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
    const id = nextId.toString();
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
      id: nextId.toString(),
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
      id: nextId.toString(),
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
