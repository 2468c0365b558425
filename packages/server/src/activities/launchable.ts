/**
 * @module activities/launchable: `GET /channels/{channel_id}/activity-shelf`, the apps with an
 * activity a person may launch in a channel, which the web client's "Activities" dialog lists
 * (docs/activities.md#launching). The candidates are the apps installed where the channel is
 * (the bots of its guild, or the bot of a DM) and the apps the person installed for themselves
 * (as for the command index, docs/commands.md#the-command-index), kept when their EMBEDDED flag
 * is set (an activity config with a root mapping sets it), and the apps running there (which
 * anyone who sees the channel may join). The launch route checks the launch permissions again
 * (CONNECT, USE_EMBEDDED_ACTIVITIES); the shelf needs VIEW_CHANNEL.
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApplicationFlags, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import type { Clock } from '../domain/clock.js';
import { ApiError } from '../errors/index.js';
import { principalOf } from '../http/server.js';
import { parseInput } from '../http/validate.js';
import { loadMessageChannel } from '../resources/messages/index.js';
import type { ApplicationRecord, Repositories, Storage } from '../storage/index.js';

/** A user install's integration type, and the scope its grant holds. */
const USER_INSTALL = 1;
const COMMANDS_SCOPE = 'applications.commands';

/** An app on the shelf. */
export interface ShelfApplication {
  id: string;
  name: string;
  icon: string | null;
  description: string;
}

const ShelfParams = z.object({ channel_id: z.string() });

/** The apps the user installed to their account (live grants of `applications.commands`). */
async function userInstalledApps(repos: Repositories, userId: string): Promise<string[]> {
  const grants = await repos.oauth.listAuthorizationsForUser(userId);
  return grants
    .filter(
      (g) =>
        g.revokedAt === null &&
        g.integrationType === USER_INSTALL &&
        g.scopes.includes(COMMANDS_SCOPE),
    )
    .map((g) => g.applicationId);
}

/**
 * The channel's shelf for the user: 10003 for an unknown channel, 50001 without VIEW_CHANNEL.
 * Sorted by id (creation order).
 */
export async function loadShelf(
  repos: Repositories,
  request: { channelId: string; userId: string; nowMs: number },
): Promise<{ applications: ShelfApplication[] }> {
  if (!isSnowflake(request.channelId)) throw new ApiError('UNKNOWN_CHANNEL');
  const access = await loadMessageChannel(repos, request);
  access.require(P.VIEW_CHANNEL);
  const byId = new Map<string, ApplicationRecord>();
  if (access.guildId !== null) {
    for (const app of await repos.applications.listInstalledInGuild(access.guildId)) {
      byId.set(app.id, app);
    }
  } else {
    for (const recipient of access.privateChannel?.recipients ?? []) {
      if (recipient.userId === request.userId) continue;
      const app = await repos.applications.findByBotUserId(recipient.userId);
      if (app !== null) byId.set(app.id, app);
    }
  }
  const running = (await repos.activities.listLiveInstances(access.channel.id)).map(
    (instance) => instance.applicationId,
  );
  for (const appId of [...(await userInstalledApps(repos, request.userId)), ...running]) {
    if (byId.has(appId)) continue;
    const app = await repos.applications.findById(appId);
    if (app !== null) byId.set(app.id, app);
  }
  const applications = [...byId.values()]
    .filter((app) => (app.flags & ApplicationFlags.EMBEDDED) !== 0n)
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1))
    .map((app) => ({
      id: app.id,
      name: app.name,
      icon: app.icon,
      description: app.description,
    }));
  return { applications };
}

/** Registers the shelf route (people only: a session token). */
export function registerActivityShelfRoutes(
  app: FastifyInstance,
  deps: { storage: Storage; clock: Clock },
): void {
  app.get('/channels/:channel_id/activity-shelf', { config: { auth: ['session'] } }, (request) =>
    loadShelf(deps.storage, {
      channelId: parseInput(ShelfParams, request.params).channel_id,
      userId: principalOf(request).user.id,
      nowMs: deps.clock.now(),
    }),
  );
}
