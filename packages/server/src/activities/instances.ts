/**
 * @module activities/instances: activity instances (docs/activities.md#instances). A
 * person launches an application's activity in a guild voice channel, a text channel or a DM
 * (from the client, a LAUNCH_ACTIVITY response or an entry point command): the app's live
 * instance there is joined, or a new one made with a fresh launch id. The instance ends when its
 * last participant leaves. Every join, leave and end is an EMBEDDED_ACTIVITY_UPDATE to the
 * person sessions of everyone who can see the channel (gateway/routing.ts keeps it from bots).
 */
import { ChannelTypes, PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { z } from 'zod';
import type { IdGenerator } from '../domain/snowflakes.js';
import { ApiError, invalidField } from '../errors/index.js';
import { afterCommit } from '../events/afterCommit.js';
import type { Principal } from '../http/authenticator.js';
import { Snowflake } from '../http/schemas.js';
import { loadMessageChannel, type MessageChannelAccess } from '../resources/messages/index.js';
import type {
  ActivityInstanceRecord,
  ActivityParticipantRecord,
  Repositories,
  Storage,
} from '../storage/index.js';
import { hasActivity } from './config.js';

/** The gateway event of every join, leave and end. */
export const EMBEDDED_ACTIVITY_UPDATE = 'EMBEDDED_ACTIVITY_UPDATE';

/** Guild channels an activity runs in beside voice: text-like ones. */
const TEXT_CHANNEL_TYPES = new Set<number>([
  ChannelTypes.GUILD_TEXT,
  ChannelTypes.GUILD_ANNOUNCEMENT,
]);
const VOICE_TYPES = new Set<number>([ChannelTypes.GUILD_VOICE, ChannelTypes.GUILD_STAGE_VOICE]);
const PRIVATE_TYPES = new Set<number>([ChannelTypes.DM, ChannelTypes.GROUP_DM]);

/** How many times a join retries when a concurrent leave ended the instance it found. */
const JOIN_ATTEMPTS = 3;

/** Where an instance runs, as the platform names it. */
export function locationOf(instance: Pick<ActivityInstanceRecord, 'channelId' | 'guildId'>) {
  return instance.guildId === null
    ? {
        id: `pc-${instance.channelId}`,
        kind: 'pc' as const,
        channel_id: instance.channelId,
      }
    : {
        id: `gc-${instance.guildId}-${instance.channelId}`,
        kind: 'gc' as const,
        channel_id: instance.channelId,
        guild_id: instance.guildId,
      };
}

/** The platform's instance id: `i-<launch id>-<location id>`. */
export function instanceIdOf(
  launchId: string,
  place: Pick<ActivityInstanceRecord, 'channelId' | 'guildId'>,
): string {
  return `i-${launchId}-${locationOf(place).id}`;
}

/** GET /applications/{id}/activity-instances/{instance_id}: the platform's EmbeddedActivityInstance. */
export function serializeAppInstance(
  instance: ActivityInstanceRecord,
  participants: readonly ActivityParticipantRecord[],
) {
  return {
    application_id: instance.applicationId,
    instance_id: instance.id,
    launch_id: instance.launchId,
    location: locationOf(instance),
    users: participants.map((p) => p.userId),
  };
}

/** One participant of an instance as the client shows it: the user, with their guild nickname. */
export interface InstanceParticipantWire {
  id: string;
  username: string;
  global_name: string | null;
  avatar: string | null;
  discriminator: string;
  nickname?: string;
}

/**
 * The client's instance object: what the launch and join routes answer and EMBEDDED_ACTIVITY_UPDATE
 * carries. `launched_by` is whose launch it reports; `ended` once the last participant left.
 */
export type ClientInstanceWire = ReturnType<typeof serializeAppInstance> & {
  participants: InstanceParticipantWire[];
  launched_by: string;
  ended: boolean;
  activity_origin: string;
};

declare module '../domain/dispatch.js' {
  interface DispatchPayloads {
    EMBEDDED_ACTIVITY_UPDATE: ClientInstanceWire;
  }
}

export const LaunchBody = z.object({ application_id: Snowflake }).strict();
export const ChannelParams = z.object({ channel_id: z.string() });
export const LeaveParams = z.object({ channel_id: z.string(), instance_id: z.string() });
export const AppInstanceParams = z.object({
  application_id: z.string(),
  instance_id: z.string(),
});

/** What the instance service is built from. */
export interface ActivityInstanceDeps {
  storage: Storage;
  clock: { now(): number };
  ids: IdGenerator;
  /** The origin the app's activity is served from (the proxy host). */
  activityOrigin: (applicationId: string) => string;
}

/** Who launches or joins, and where. */
export interface LaunchRequest {
  applicationId: string;
  userId: string;
  access: MessageChannelAccess;
}

/**
 * Checks that the caller may run an activity in the channel: in a guild voice channel
 * VIEW_CHANNEL, CONNECT and USE_EMBEDDED_ACTIVITIES; in a text channel VIEW_CHANNEL and
 * USE_EMBEDDED_ACTIVITIES; in a DM or group DM being a recipient (loadMessageChannel checked).
 * Any other channel type is 50024.
 */
export function requireLaunchable(access: MessageChannelAccess): void {
  const type = access.channel.type;
  if (PRIVATE_TYPES.has(type) && access.privateChannel !== null) return;
  if (VOICE_TYPES.has(type)) {
    access.require(P.VIEW_CHANNEL | P.CONNECT | P.USE_EMBEDDED_ACTIVITIES);
    return;
  }
  if (TEXT_CHANNEL_TYPES.has(type)) {
    access.require(P.VIEW_CHANNEL | P.USE_EMBEDDED_ACTIVITIES);
    return;
  }
  throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
}

/**
 * Refuses an application without an activity (10002 unknown, 50035 not an activity), one
 * without the web platform, and an age-gated one for a person not known to be allowed to see
 * age-restricted content (403 20024).
 */
export async function requireActivity(repos: Repositories, applicationId: string, userId: string) {
  const application = await repos.applications.findById(applicationId);
  if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
  if (!(await hasActivity(repos, applicationId))) {
    throw invalidField(
      ['application_id'],
      'APPLICATION_NOT_EMBEDDED',
      'This application has no activity to launch.',
    );
  }
  // Guildhall's client is the web client: an activity that does not list `web` cannot run.
  const config = await repos.activities.findConfig(applicationId);
  if (config !== null && !config.supportedPlatforms.includes('web')) {
    throw invalidField(
      ['application_id'],
      'ACTIVITY_PLATFORM_UNSUPPORTED',
      'This activity does not support the web platform.',
    );
  }
  if (config?.requiresAgeGate === true && (await repos.users.findNsfwAllowed(userId)) !== true) {
    throw new ApiError('UNDER_MINIMUM_AGE');
  }
  return application;
}

export function createActivityInstanceService(deps: ActivityInstanceDeps) {
  const { storage, clock, ids } = deps;

  /**
   * The client instance object: the route answers and the gateway event's data. `launchedBy`
   * is the person whose launch it reports (who launched or joined just now); by default the one
   * who started the instance. The client opens the activity when it is its own user.
   */
  const clientView = async (
    repos: Repositories,
    instance: ActivityInstanceRecord,
    launchedBy = instance.launchedBy,
  ): Promise<ClientInstanceWire> => {
    const participants = await repos.activities.listParticipants(instance.id);
    const userIds = participants.map((p) => p.userId);
    const [users, members] = await Promise.all([
      repos.users.findByIds(userIds),
      instance.guildId === null
        ? []
        : Promise.all(userIds.map((id) => repos.members.find(instance.guildId ?? '', id))),
    ]);
    const byId = new Map(users.map((u) => [u.id, u]));
    const nicks = new Map(members.flatMap((m) => (m === null ? [] : [[m.userId, m.nick]])));
    return {
      ...serializeAppInstance(instance, participants),
      participants: userIds.flatMap((id) => {
        const user = byId.get(id);
        if (user === undefined) return [];
        const nickname = nicks.get(id) ?? null;
        return [
          {
            id: user.id,
            username: user.username,
            global_name: user.globalName,
            avatar: user.avatar,
            discriminator: user.discriminator,
            ...(nickname === null ? {} : { nickname }),
          },
        ];
      }),
      launched_by: launchedBy,
      ended: instance.endedAt !== null,
      activity_origin: deps.activityOrigin(instance.applicationId),
    };
  };

  /** Announces the instance's current state, once `tx` commits, to who can see the channel. */
  const announce = async (
    tx: Repositories,
    instance: ActivityInstanceRecord,
    to: { recipients: readonly string[] | null; launchedBy?: string },
  ) => {
    const { recipients, launchedBy } = to;
    const data = await clientView(tx, instance, launchedBy);
    afterCommit(tx, {
      type: EMBEDDED_ACTIVITY_UPDATE,
      guildId: instance.guildId,
      channelId: instance.channelId,
      ...(recipients === null ? {} : { userIds: recipients }),
      data,
    });
    return data;
  };

  const recipientsOf = (access: MessageChannelAccess) =>
    access.privateChannel?.recipients.map((r) => r.userId) ?? null;

  /** The app's live instance in the channel, locked, or a new one; null when a leave ended it. */
  const liveOrNew = async (tx: Repositories, request: LaunchRequest) => {
    const { applicationId, userId, access } = request;
    const found = await tx.activities.findLiveInstance(applicationId, access.channel.id);
    if (found !== null) {
      const locked = await tx.activities.lockInstance(found.id);
      return locked?.endedAt === null ? locked : null;
    }
    const launchId = ids();
    const place = { channelId: access.channel.id, guildId: access.guildId };
    const instance: ActivityInstanceRecord = {
      id: instanceIdOf(launchId, place),
      applicationId,
      launchId,
      locationKind: access.guildId === null ? 'pc' : 'gc',
      ...place,
      launchedBy: userId,
      createdAt: clock.now(),
      endedAt: null,
    };
    return (await tx.activities.createInstance(instance)) ? instance : null;
  };

  /**
   * Launches or joins the app's instance in the channel for the user, inside `tx`, once `launch`
   * checked the place and the app. Announces the instance once `tx` commits; returns its client
   * object.
   */
  const launchIn = async (tx: Repositories, request: LaunchRequest) => {
    for (let attempt = 0; attempt < JOIN_ATTEMPTS; attempt++) {
      const instance = await liveOrNew(tx, request);
      if (instance === null) continue;
      await tx.activities.addParticipant({
        instanceId: instance.id,
        userId: request.userId,
        joinedAt: clock.now(),
      });
      return announce(tx, instance, {
        recipients: recipientsOf(request.access),
        launchedBy: request.userId,
      });
    }
    throw new ApiError('NOT_FOUND');
  };

  const channelAccess = (repos: Repositories, principal: Principal, channelId: string) =>
    loadMessageChannel(repos, { channelId, userId: principal.user.id, nowMs: clock.now() });

  /**
   * Checks the place and the app (`requireLaunchable`, then an activity to launch), then
   * launches or joins inside `tx` (the interactions' InteractionActivities port too).
   */
  const launch = async (tx: Repositories, request: LaunchRequest) => {
    requireLaunchable(request.access);
    await requireActivity(tx, request.applicationId, request.userId);
    return launchIn(tx, request);
  };

  /**
   * Takes the user out of the instance inside `tx` (404 when it is unknown, ended or of another
   * channel; nothing when they were not in it); the last one out ends it. Announced on commit.
   */
  const leaveIn = async (
    tx: Repositories,
    request: { instanceId: string; userId: string; channelId: string },
  ) => {
    const { userId } = request;
    const instance = await tx.activities.lockInstance(request.instanceId);
    if (instance?.endedAt !== null || instance.channelId !== request.channelId) {
      throw new ApiError('NOT_FOUND');
    }
    if (!(await tx.activities.removeParticipant(instance.id, userId))) return;
    const now = clock.now();
    const ended = await tx.activities.endIfEmpty(instance.id, now);
    const current = ended ? { ...instance, endedAt: now } : instance;
    const recipients =
      instance.guildId === null
        ? ((await tx.privateChannels.find(instance.channelId))?.recipients.map((r) => r.userId) ?? [
            userId,
          ])
        : null;
    await announce(tx, current, { recipients });
  };

  return {
    launch,
    hasActivity,

    /** POST /channels/{channel_id}/activity-instances: launch or join. */
    async join(principal: Principal, channelId: string, applicationId: string) {
      const access = await channelAccess(storage, principal, channelId);
      return storage.transaction((tx) =>
        launch(tx, { applicationId, userId: principal.user.id, access }),
      );
    },

    /** DELETE …/activity-instances/{instance_id}/participants/@me: leave; the last one ends it. */
    async leave(principal: Principal, channelId: string, instanceId: string): Promise<void> {
      await storage.transaction((tx) =>
        leaveIn(tx, { instanceId, userId: principal.user.id, channelId }),
      );
    },

    /**
     * The user leaves every live instance `leaves` names, as with the leave route: when they
     * leave its voice channel, its guild, or disconnect from voice (participantWatch.ts).
     */
    async leaveWhere(
      userId: string,
      leaves: (instance: ActivityInstanceRecord) => boolean | Promise<boolean>,
    ): Promise<void> {
      for (const instance of await storage.activities.listLiveInstancesOfUser(userId)) {
        if (!(await leaves(instance))) continue;
        // A leave or end since the listing is no error here: the user is out either way.
        await storage
          .transaction((tx) =>
            leaveIn(tx, { instanceId: instance.id, userId, channelId: instance.channelId }),
          )
          .catch((error: unknown) => {
            if (!(error instanceof ApiError && error.status === 404)) throw error;
          });
      }
    },

    /** GET /channels/{channel_id}/activity-instances: the live instances there. */
    async list(principal: Principal, channelId: string) {
      const access = await channelAccess(storage, principal, channelId);
      access.require(P.VIEW_CHANNEL);
      const instances = await storage.activities.listLiveInstances(access.channel.id);
      return Promise.all(instances.map((instance) => clientView(storage, instance)));
    },

    /** GET /applications/{id}/activity-instances/{instance_id} with the app's bot token. */
    async getForApp(principal: Principal, applicationId: string, instanceId: string) {
      if (!isSnowflake(applicationId) || principal.applicationId !== applicationId) {
        throw new ApiError('UNKNOWN_APPLICATION');
      }
      const instance = await storage.activities.findInstance(instanceId);
      if (instance?.applicationId !== applicationId || instance.endedAt !== null) {
        throw new ApiError('NOT_FOUND');
      }
      const participants = await storage.activities.listParticipants(instance.id);
      return serializeAppInstance(instance, participants);
    },
  };
}

export type ActivityInstanceService = ReturnType<typeof createActivityInstanceService>;
