/**
 * The channel route test fixture: a server per driver (the worker's files share it), its clock set back before each
 * test to the day before channel lists hide unviewable channels, and per test a guild (a text and a voice channel) owned by ada
 * with her bot as administrator; bob's bot joins with the permissions a test gives it.
 *
 * @module
 */
import { PermissionFlags as P } from '@guildhall/protocol';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../src/domain/permissions.js';
import type { Driver } from './drivers.js';
import { apiCall } from './guildApi.js';
import { perTest, sharedClock, uniqueName, useFileServer } from './fileServer.js';
import { seedDeveloper, type TestServer } from './testServer.js';

const DAY_MS = 24 * 60 * 60 * 1000;

type Seed = Awaited<ReturnType<typeof seedDeveloper>>;

/** A channel as the routes answer it. */
export interface ChannelWire {
  id: string;
  name: string;
  type: number;
  parent_id: string | null;
  position: number;
  permission_overwrites: { id: string; type: number; allow: string; deny: string }[];
}

interface State {
  server: TestServer;
  ada: Seed;
  bob: Seed;
  call: ReturnType<typeof apiCall>;
  guildId: string;
  textId: string;
  voiceId: string;
}

/** Registers the server of one driver and each test's guild; read its fields inside tests. */
export function useChannelFixture(driver: Driver) {
  const clock = sharedClock(`channel:${driver}`, CHANNEL_LIST_VISIBILITY_FROM_MS - DAY_MS);
  const shared = useFileServer({ storage: driver, clock }, 'channel');
  const current = perTest(async (): Promise<State> => {
    clock.set(CHANNEL_LIST_VISIBILITY_FROM_MS - DAY_MS);
    const { server } = shared;
    const ada = await seedDeveloper(server.app, uniqueName('ada'), 'ada app');
    const bob = await seedDeveloper(server.app, uniqueName('bob'), 'bob app');
    const created = await server.app.services.guilds.create({
      ownerId: ada.userId,
      name: 'Guild',
      channels: [
        { name: 'general', type: 'text' },
        { name: 'Lounge', type: 'voice' },
      ],
    });
    const guildId = created.guild.id;
    await server.app.services.guilds.addBot({
      guildId,
      applicationId: ada.applicationId,
      permissions: P.ADMINISTRATOR,
    });
    return {
      server,
      ada,
      bob,
      call: apiCall(server.app),
      guildId,
      textId: created.channels[0]?.id ?? '',
      voiceId: created.channels[1]?.id ?? '',
    };
  });

  const storage = () => current().server.app.storage;
  return {
    clock,
    get server() {
      return current().server;
    },
    get ada() {
      return current().ada;
    },
    get bob() {
      return current().bob;
    },
    get guildId() {
      return current().guildId;
    },
    get textId() {
      return current().textId;
    },
    get voiceId() {
      return current().voiceId;
    },
    /** One API request (`'GET /path'`) as `authorization` (guildApi.ts `apiCall`). */
    call: (...args: Parameters<ReturnType<typeof apiCall>>) => current().call(...args),
    /** Adds bob's bot to the guild with `permissions`. */
    addBob: (permissions: bigint) =>
      current().server.app.services.guilds.addBot({
        guildId: current().guildId,
        applicationId: current().bob.applicationId,
        permissions,
      }),
    /** The managed role of bob's bot. */
    bobRoleId: async () =>
      (await storage().roles.listByGuild(current().guildId)).find(
        (r) => r.botUserId === current().bob.botUserId,
      )?.id ?? '',
    auditOf: (actionType: number) =>
      storage().auditLog.list(current().guildId, { actionType, limit: 50 }),
    /** The guild's channels, overwrites and audit log: a refused request must change none. */
    snapshot: async () => {
      const channels = await storage().channels.listByGuild(current().guildId);
      return {
        channels,
        overwrites: await storage().overwrites.listByChannels(channels.map((c) => c.id)),
        audit: await storage().auditLog.list(current().guildId, { limit: 100 }),
      };
    },
  };
}
