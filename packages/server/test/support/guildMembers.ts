/**
 * Fixtures for the role, member, ban and prune route tests: a guild owned by a person, their
 * application's bot added with chosen permissions, and more people joined through storage.
 *
 * @module
 */
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { seedDeveloper, type TestServer } from './testServer.js';
import { apiRequest } from './inject.js';
import { uniqueName } from './fileServer.js';

export interface Person {
  userId: string;
  /** The session token, usable as an Authorization header. */
  token: string;
  /** The username: the name asked for with a number of its own (uniqueName). */
  username: string;
}

export interface CallOptions {
  auth: string;
  payload?: unknown;
  reason?: string;
}

export interface GuildFixture {
  guildId: string;
  owner: Person;
  bot: { userId: string; token: string; applicationId: string };
  /**
   * Joins a new person named after `name` (made unique: uniqueName), with these roles, at this
   * time (default: the clock's now).
   */
  join(name: string, options?: { roleIds?: string[]; joinedAt?: number }): Promise<Person>;
  /** The owner, the bot and everyone joined since, by user id. */
  userIds(): string[];
  /** How many audit log entries the guild has: a refused request must not add one. */
  auditCount(): Promise<number>;
  /**
   * Sends a request to /api/v10 with this Authorization header (or these options, to send a body
   * or an X-Audit-Log-Reason too).
   */
  call(
    method: InjectOptions['method'],
    path: string,
    options: string | CallOptions,
  ): Promise<LightMyRequestResponse>;
}

/**
 * Makes the guild, owned by a new developer (`owner_N`); the bot joins with `botPermissions` on
 * its managed role. Its people have names of their own, so many fixtures share a server.
 */
export async function guildFixture(
  server: TestServer,
  options: { botPermissions: bigint; features?: string[]; nowMs?: () => number },
): Promise<GuildFixture> {
  const { app } = server;
  const seed = await seedDeveloper(app, uniqueName('owner'), 'owner app');
  const { guild } = await app.services.guilds.create({
    ownerId: seed.userId,
    name: 'Fixture guild',
    channels: [{ name: 'general', type: 'text' }],
  });
  if (options.features !== undefined) {
    await app.storage.guilds.update(guild.id, { features: options.features });
  }
  await app.services.guilds.addBot({
    guildId: guild.id,
    applicationId: seed.applicationId,
    permissions: options.botPermissions,
  });
  const now = options.nowMs ?? (() => Date.now());
  const userIds = [seed.userId, seed.botUserId];
  return {
    guildId: guild.id,
    owner: { userId: seed.userId, token: seed.userToken, username: seed.username },
    bot: {
      userId: seed.botUserId,
      token: `Bot ${seed.botToken}`,
      applicationId: seed.applicationId,
    },
    async join(name, { roleIds = [], joinedAt = now() } = {}) {
      const username = uniqueName(name);
      const session = await app.services.auth.register({
        email: `${username}@example.test`,
        username,
        password: 'correct horse battery',
      });
      await app.storage.members.add({
        guildId: guild.id,
        userId: session.user_id,
        nick: null,
        joinedAt,
        deaf: false,
        mute: false,
        flags: 0,
        roleIds,
      });
      userIds.push(session.user_id);
      return { userId: session.user_id, token: session.token, username };
    },
    userIds: () => [...userIds],
    async auditCount() {
      return (await app.storage.auditLog.list(guild.id, { limit: 10_000 })).length;
    },
    async call(method, path, options) {
      const { auth, payload, reason } = typeof options === 'string' ? { auth: options } : options;
      return apiRequest(app, `${method} ${path}`, {
        auth,
        payload,
        headers: reason === undefined ? {} : { 'x-audit-log-reason': encodeURIComponent(reason) },
      });
    },
  };
}
