import { readFileSync } from 'node:fs';
import { ApplicationFlags, PermissionFlags } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { apiRequest } from '../../test/support/inject.js';
import { startTestServer, type TestServer } from '../../test/support/testServer.js';
import { loadWorld } from './world.js';
import { WorldError, parseWorld } from './worldFile.js';
import { checkWorldReferences } from './worldRefs.js';
import { worldJsonSchema, type WorldFile } from './worldSchema.js';
import type { LoadedWorld } from './worldTypes.js';

const WORLD: WorldFile = {
  seed: 'world-test',
  people: {
    alice: { global_name: 'Alice' },
    bob: null,
    carol: { password: 'correct horse battery' },
    dave: null,
  },
  applications: {
    helper: {
      owner: 'alice',
      intents: ['MESSAGE_CONTENT'],
      commands: {
        ping: { description: 'Answers pong' },
        here: { description: 'Only in main', guild: 'main' },
      },
      skus: { premium: { type: 'durable' } },
      entitlements: { bobs: { sku: 'premium', user: 'bob' } },
    },
  },
  guilds: {
    main: {
      name: 'Main Hall',
      owner: 'alice',
      roles: { mods: { permissions: ['KICK_MEMBERS'], color: 255, hoist: true } },
      channels: {
        info: { type: 'category' },
        general: {
          parent: 'info',
          topic: 'Say hello',
          permission_overwrites: [
            { role: 'mods', allow: ['MANAGE_MESSAGES'] },
            { member: 'bob', deny: ['SEND_MESSAGES'] },
          ],
        },
        lounge: { type: 'voice' },
      },
      members: { bob: { nick: 'Bobby', roles: ['mods'] }, carol: null },
      bots: { helper: { permissions: ['SEND_MESSAGES', 'VIEW_CHANNEL'] } },
    },
  },
  relationships: [
    { from: 'alice', to: 'bob', type: 'friend' },
    { from: 'carol', to: 'bob', type: 'request' },
    { from: 'dave', to: 'alice', type: 'block' },
  ],
  lobbies: {
    party: { application: 'helper', members: { alice: null, bob: { metadata: { team: 'red' } } } },
  },
};

describeDrivers('loadWorld on $driver', (driver) => {
  let server: TestServer;
  let world: LoadedWorld;
  beforeAll(async () => {
    server = await startTestServer({ storage: driver });
    world = await loadWorld(server.app, WORLD);
  });
  afterAll(() => server.close());

  const get = async <T = Record<string, unknown>>(path: string, auth: string) => {
    const res = await apiRequest(server.app, `GET ${path}`, { auth });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<T>();
  };
  const person = (name: string) => world.people[name] ?? expect.fail(`no ${name}`);
  const helper = () => world.applications['helper'] ?? expect.fail('no helper');
  const main = () => world.guilds['main'] ?? expect.fail('no main');

  it('makes each person with a working session token', async () => {
    const me = await get('/users/@me', person('alice').token);
    expect(me).toMatchObject({ id: person('alice').id, username: 'alice', global_name: 'Alice' });
    expect(world.people['bob']?.username).toBe('bob');
    // A person given a password logs in with it; one without has none.
    const login = (login: string, password: string) =>
      apiRequest(server.app, 'POST /auth/login', { payload: { login, password } });
    expect((await login('carol', 'correct horse battery')).statusCode).toBe(200);
    expect((await login('bob', 'correct horse battery')).statusCode).toBe(400);
  });

  it('makes the guild with its roles, channels, overwrites, members and bot', async () => {
    const { id, channels, roles } = main();
    const auth = person('alice').token;
    expect(await get<unknown>(`/guilds/${id}`, auth)).toMatchObject({ name: 'Main Hall' });
    const listed = (await get<unknown>(`/guilds/${id}/channels`, auth)) as {
      id: string;
      name: string;
      type: number;
      parent_id: string | null;
      topic?: string | null;
      permission_overwrites: { id: string; type: number; allow: string; deny: string }[];
    }[];
    const general = listed.find((c) => c.id === channels['general']);
    expect(general).toMatchObject({ name: 'general', type: 0, parent_id: channels['info'] });
    expect(general?.topic).toBe('Say hello');
    expect(general?.permission_overwrites).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          id: roles['mods'],
          type: 0,
          allow: String(PermissionFlags.MANAGE_MESSAGES),
        }),
        expect.objectContaining({
          id: person('bob').id,
          type: 1,
          deny: String(PermissionFlags.SEND_MESSAGES),
        }),
      ]),
    );
    expect(listed.find((c) => c.id === channels['lounge'])?.type).toBe(2);
    const mods = (
      (await get<unknown>(`/guilds/${id}/roles`, auth)) as {
        id: string;
        permissions: string;
        color: number;
        hoist: boolean;
      }[]
    ).find((r) => r.id === roles['mods']);
    expect(mods).toMatchObject({
      permissions: String(PermissionFlags.KICK_MEMBERS),
      color: 255,
      hoist: true,
    });
    const bob = await get(`/guilds/${id}/members/${person('bob').id}`, auth);
    expect(bob).toMatchObject({ nick: 'Bobby', roles: [roles['mods']] });
    const members = (await get<unknown>(`/guilds/${id}/members?limit=10`, auth)) as {
      user: { id: string };
    }[];
    expect(members.map((m) => m.user.id).sort()).toEqual(
      [person('alice').id, person('bob').id, person('carol').id, helper().botUserId].sort(),
    );
    // The invite they joined by is gone.
    expect(await get<unknown>(`/guilds/${id}/invites`, auth)).toEqual([]);
  });

  it('makes the application: its bot token, intents, commands, SKU and entitlement', async () => {
    const bot = `Bot ${helper().botToken}`;
    const app = await get('/applications/@me', bot);
    expect(app['id']).toBe(helper().id);
    expect(
      BigInt(app['flags'] as number) & ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    ).not.toBe(0n);
    expect(app['verify_key']).toBe(helper().publicKey);
    const global = (await get<unknown>(`/applications/${helper().id}/commands`, bot)) as {
      id: string;
      name: string;
    }[];
    expect(global).toEqual([
      expect.objectContaining({ id: helper().commands['ping'], name: 'ping' }),
    ]);
    const guildCommands = await get<{ id: string }[]>(
      `/applications/${helper().id}/guilds/${main().id}/commands`,
      bot,
    );
    expect(guildCommands.map((c) => c.id)).toEqual([helper().commands['here']]);
    const entitlements = (await get<unknown>(`/applications/${helper().id}/entitlements`, bot)) as {
      id: string;
      sku_id: string;
      user_id: string;
    }[];
    expect(entitlements).toEqual([
      expect.objectContaining({
        id: helper().entitlements['bobs'],
        sku_id: helper().skus['premium'],
        user_id: person('bob').id,
      }),
    ]);
  });

  it('makes friends, a pending request, a block and a lobby', async () => {
    const relationsOf = async (name: string) =>
      (await get<unknown>('/users/@me/relationships', person(name).token)) as {
        id: string;
        type: number;
      }[];
    expect(await relationsOf('alice')).toEqual([
      expect.objectContaining({ id: person('bob').id, type: 1 }),
    ]);
    expect(await relationsOf('carol')).toEqual([
      expect.objectContaining({ id: person('bob').id, type: 4 }),
    ]);
    expect(await relationsOf('dave')).toEqual([
      expect.objectContaining({ id: person('alice').id, type: 2 }),
    ]);
    const lobby = await get(
      `/lobbies/${world.lobbies['party']?.id ?? ''}`,
      `Bot ${helper().botToken}`,
    );
    expect(lobby['members']).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: person('alice').id }),
        expect.objectContaining({ id: person('bob').id, metadata: { team: 'red' } }),
      ]),
    );
  });

  it('gives the same ids and tokens in a fresh server, and others for another seed', async () => {
    await using fresh = await startTestServer({ storage: driver });
    // On SQLite the fresh server returns to empty for the other seed; PostgreSQL cannot go back
    // to a snapshot (control/reset.ts), so it takes another server.
    const empty = driver === 'sqlite' ? await fresh.app.snapshot() : null;
    expect(await loadWorld(fresh.app, WORLD)).toEqual(world);
    await empty?.restore();
    await using other = empty === null ? await startTestServer({ storage: driver }) : null;
    const reseeded = await loadWorld((other ?? fresh).app, WORLD, { seed: 'another' });
    expect(reseeded.people['alice']?.id).not.toBe(person('alice').id);
    expect(reseeded.applications['helper']?.botToken).not.toBe(helper().botToken);
  });

  it('names where in the world the API refused something', async () => {
    const refused = loadWorld(server.app, {
      people: { erin: null },
      applications: { shouty: { owner: 'erin', commands: { bad: { name: 'Not Valid!' } } } },
    });
    await expect(refused).rejects.toThrow(WorldError);
    await expect(refused).rejects.toThrow(/applications\.shouty\.commands\.bad\.name: /);
  });
});

describe('world files', () => {
  it('name the path of each schema mistake', () => {
    const mistakes = () =>
      parseWorld({
        people: { 'bad name': null, ok: { usernam: 'x' } },
        guilds: { main: { owner: 'ok', channels: { general: { type: 'txt' } } } },
      });
    expect(mistakes).toThrow(WorldError);
    expect(mistakes).toThrow(/people\.ok: Unrecognized key: "usernam"/);
    expect(mistakes).toThrow(/guilds\.main\.channels\.general\.type: /);
    expect(mistakes).toThrow(/people\.bad name: A name is 1 to 64 letters/);
  });

  it('name each name that points at nothing, before anything is made', () => {
    const dangling = () => {
      checkWorldReferences(
        parseWorld({
          people: { ann: null },
          applications: { app: { owner: 'zed' } },
          guilds: { g: { owner: 'ann', members: { bo: null }, bots: { nope: null } } },
          relationships: [{ from: 'ann', to: 'ann', type: 'friend' }],
        }),
      );
    };
    expect(dangling).toThrow(/applications\.app\.owner: No person is named zed/);
    expect(dangling).toThrow(/guilds\.g\.members\.bo: No person is named bo/);
    expect(dangling).toThrow(/guilds\.g\.bots\.nope: No application is named nope/);
    expect(dangling).toThrow(/relationships\[0\]: A person has no relationship with themself/);
  });

  it('has a published JSON Schema that is the loader schema', () => {
    const published: unknown = JSON.parse(
      readFileSync(new URL('../../world.schema.json', import.meta.url), 'utf8'),
    );
    expect(published).toEqual(worldJsonSchema());
  });

  it('the demo world is a valid world', () => {
    const demo: unknown = JSON.parse(
      readFileSync(new URL('../../worlds/demo.json', import.meta.url), 'utf8'),
    );
    expect(() => {
      checkWorldReferences(parseWorld(demo));
    }).not.toThrow();
  });
});
