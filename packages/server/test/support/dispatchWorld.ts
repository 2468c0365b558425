/**
 * The harness of the dispatch tests (resources/*Dispatches.test.ts, dispatches.test.ts): one
 * server per file on one driver with a guild (a text and a voice channel), every dispatch the bus
 * carries collected, and cases that make a REST change and compare what was announced, payloads
 * against REST.
 *
 * @module
 */
import { ChannelTypes } from '@guildhall/protocol';
import { afterAll, beforeAll, expect } from 'vitest';
import type { DispatchEnvelope } from '../../src/events/dispatcher.js';
import type { Driver } from './drivers.js';
import { PNG_1X1 } from './expressionFixtures.js';
import { guildFixture, type GuildFixture, type Person } from './guildMembers.js';
import { startTestServer, type TestServer } from './testServer.js';
import { apiRequest } from './inject.js';

/** One dispatch as a gateway node receives it from the bus. */
export interface Seen {
  type: string;
  subject: string;
  guildId: string | null;
  channelId: string | null;
  userIds: readonly string[];
  data: Record<string, unknown>;
}

/** A dispatch a case expects; `data` is matched as a subset unless `exact`. */
export interface Expected {
  type: string;
  guildId: string | null;
  channelId?: string | null;
  userIds?: string[];
  data: Record<string, unknown>;
  exact?: boolean;
}

export interface World {
  server: TestServer;
  fx: GuildFixture;
  owner: string;
  textId: string;
  voiceId: string;
  /** GET as the owner, parsed. */
  get(path: string): Promise<Record<string, unknown>>;
}

export type Setup = Record<string, string>;

export interface Request {
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  auth?: string;
  payload?: unknown;
  headers?: Record<string, string>;
}

export interface Case {
  name: string;
  setup?: (w: World) => Promise<Setup>;
  request: (w: World, s: Setup) => Request;
  status: number;
  /** The dispatches in order, audit entries left out; may read REST to compare payloads. */
  expect: (w: World, s: Setup) => Expected[] | Promise<Expected[]>;
  /** How many GUILD_AUDIT_LOG_ENTRY_CREATE the change announces. */
  audits: number;
}

export const DAY_MS = 86_400_000;
export const iso = (ms: number) => new Date(ms).toISOString();
const png = Buffer.from(PNG_1X1.split(',')[1] ?? '', 'base64');

/** A multipart/form-data sticker upload as client libraries send it. */
export function stickerForm(name: string) {
  const boundary = 'guildhall-dispatch-boundary';
  const field = (key: string, value: string) =>
    `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${value}\r\n`;
  const body = Buffer.concat([
    Buffer.from(field('name', name) + field('tags', 'smile') + field('description', '')),
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="s.png"\r\nContent-Type: image/png\r\n\r\n`,
    ),
    png,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, type: `multipart/form-data; boundary=${boundary}` };
}

let people = 0;
/** A username no one in this file has: `prefix` and a counter. */
export const personName = (prefix: string) => `${prefix}${String((people += 1))}`;
export const join = (w: World, options: { joinedAt?: number } = {}): Promise<Person> =>
  w.fx.join(personName('person'), options);

export const createRole = async (w: World, name: string) => {
  const res = await w.fx.call('POST', `/guilds/${w.fx.guildId}/roles`, {
    auth: w.owner,
    payload: { name },
  });
  return res.json<{ id: string }>().id;
};

export const createChannel = async (w: World, payload: Record<string, unknown>) => {
  const res = await w.fx.call('POST', `/guilds/${w.fx.guildId}/channels`, {
    auth: w.owner,
    payload,
  });
  return res.json<{ id: string }>().id;
};

export const createEmoji = async (w: World, name: string) => {
  const res = await w.fx.call('POST', `/guilds/${w.fx.guildId}/emojis`, {
    auth: w.owner,
    payload: { name, image: PNG_1X1 },
  });
  return res.json<{ id: string }>().id;
};

export const createEvent = async (w: World) => {
  const res = await w.fx.call('POST', `/guilds/${w.fx.guildId}/scheduled-events`, {
    auth: w.owner,
    payload: {
      name: 'Voice hangout',
      privacy_level: 2,
      entity_type: 2,
      channel_id: w.voiceId,
      scheduled_start_time: iso(Date.now() + DAY_MS),
    },
  });
  return res.json<{ id: string }>().id;
};

/** Gateway emoji and stickers do not name their creator. */
export const withoutCreator = (item: object) =>
  Object.fromEntries(Object.entries(item).filter(([key]) => key !== 'user'));

export const guildEvent = (w: World, type: string, data: Record<string, unknown>): Expected => ({
  type,
  guildId: w.fx.guildId,
  channelId: null,
  data,
});

/** The dispatch of a channel as REST shows it after the change (the payloads must agree). */
export const channelAsRest = async (
  w: World,
  type: string,
  channelId: string,
): Promise<Expected> => ({
  type,
  guildId: w.fx.guildId,
  channelId,
  data: await w.get(`/channels/${channelId}`),
  exact: true,
});

export const memberAsRest = async (w: World, userId: string): Promise<Expected> => ({
  ...guildEvent(w, 'GUILD_MEMBER_UPDATE', {
    guild_id: w.fx.guildId,
    ...(await w.get(`/guilds/${w.fx.guildId}/members/${userId}`)),
  }),
  exact: true,
});

/** The fields every gateway emoji of the fixture has. */
export const emojiShape = {
  require_colons: true,
  managed: false,
  animated: false,
  available: true,
  roles: [],
};

/** A request that fails: it must announce nothing at all (no event, no audit entry). */
export interface RefusedCase {
  name: string;
  request: (w: World, stranger: Person) => Request;
}

/** Registers the file's server of one driver; runs cases and exposes the world to other tests. */
export function useDispatchWorld(driver: Driver) {
  let w: World;
  const seen: Seen[] = [];
  let flushes = 0;

  /** Waits until everything published so far has reached the collector. */
  const flush = async () => {
    const marker = `flush-${String((flushes += 1))}`;
    const arrived = new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (seen.some((e) => e.type === marker)) {
          clearInterval(check);
          resolve();
        }
      }, 2);
    });
    await w.server.app.bus.publish('dispatch.test.flush', {
      type: marker,
      topic: 'dispatch.test.flush',
      data: { guildId: null, channelId: null, userIds: [], data: {} },
      publishedAt: Date.now(),
    });
    await arrived;
    const index = seen.findIndex((e) => e.type === marker);
    return seen.splice(0).slice(0, index);
  };

  const send = (request: Request) =>
    apiRequest(w.server.app, `${request.method} ${request.path}`, {
      auth: request.auth ?? w.owner,
      payload: request.payload,
      headers: request.headers,
    });

  beforeAll(async () => {
    const server = await startTestServer({ storage: driver });
    const fx = await guildFixture(server, { botPermissions: 0n });
    const [text] = await server.app.storage.channels.listByGuild(fx.guildId);
    const voice = await server.app.storage.channels.create({
      id: String(BigInt(text?.id ?? '0') + 1n),
      guildId: fx.guildId,
      type: ChannelTypes.GUILD_VOICE,
      name: 'Lounge',
      position: 1,
      parentId: null,
      topic: null,
      nsfw: false,
      rateLimitPerUser: 0,
      bitrate: 64000,
      userLimit: 0,
      flags: 0,
      lastMessageId: null,
      createdAt: Date.now(),
    });
    w = {
      server,
      fx,
      owner: fx.owner.token,
      textId: text?.id ?? '',
      voiceId: voice.id,
      async get(path) {
        const res = await server.app.http.inject({
          method: 'GET',
          url: `/api/v10${path}`,
          headers: { authorization: fx.owner.token },
        });
        expect(res.statusCode, `GET ${path}`).toBe(200);
        return res.json<Record<string, unknown>>();
      },
    };
    await server.app.bus.subscribe('dispatch.>', (event, subject) => {
      const envelope = event.data as DispatchEnvelope;
      seen.push({
        type: event.type,
        subject,
        guildId: envelope.guildId,
        channelId: envelope.channelId,
        userIds: envelope.userIds,
        data: envelope.data as Record<string, unknown>,
      });
    });
  });
  afterAll(async () => {
    await w.server.close();
  });

  /** Runs a case: its request, then the dispatches and audit entries it announced. */
  const runCase = async (c: Case) => {
    const s = (await c.setup?.(w)) ?? {};
    await flush();
    const res = await send(c.request(w, s));
    expect(res.statusCode, res.body).toBe(c.status);
    const got = await flush();
    const audits = got.filter((e) => e.type === 'GUILD_AUDIT_LOG_ENTRY_CREATE');
    const events = got.filter((e) => e.type !== 'GUILD_AUDIT_LOG_ENTRY_CREATE');
    const expected = await c.expect(w, s);
    expect(events.map((e) => e.type)).toEqual(expected.map((e) => e.type));
    for (const [i, want] of expected.entries()) {
      const event = events[i];
      if (event === undefined) continue;
      expect(event.guildId).toBe(want.guildId);
      expect(event.subject).toBe(
        want.guildId === null
          ? `dispatch.user.${want.userIds?.[0] ?? ''}`
          : `dispatch.guild.${want.guildId}`,
      );
      if (want.channelId !== undefined) expect(event.channelId).toBe(want.channelId);
      if (want.userIds !== undefined) expect(event.userIds).toEqual(want.userIds);
      if (want.exact === true) expect(event.data).toEqual(want.data);
      else expect(event.data).toMatchObject(want.data);
    }
    // Every audit entry the change wrote is announced, as GET /audit-logs shows it.
    expect(audits).toHaveLength(c.audits);
    if (c.audits > 0) {
      const log = (await w.get(`/guilds/${w.fx.guildId}/audit-logs?limit=${String(c.audits)}`)) as {
        audit_log_entries: Record<string, unknown>[];
      };
      const entries = log.audit_log_entries.map((entry) => ({ ...entry, guild_id: w.fx.guildId }));
      expect(audits.map((e) => e.data).reverse()).toEqual(entries);
      for (const audit of audits) {
        expect(audit.guildId).toBe(w.fx.guildId);
        expect(audit.channelId).toBeNull();
      }
    }
  };

  /** Runs a refused request as a stranger: nothing at all may be announced. */
  const runRefused = async (c: RefusedCase) => {
    const stranger = await join(w);
    await flush();
    const res = await send(c.request(w, stranger));
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(await flush()).toEqual([]);
  };

  return {
    get w() {
      return w;
    },
    flush,
    send,
    runCase,
    runRefused,
  };
}
