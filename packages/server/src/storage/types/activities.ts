/** Activities: embedded activity configs, instances and participants (migration 0030). */

/** One URL mapping of the proxy host: requests under `prefix` go to `target`. */
export interface ActivityUrlMapping {
  /** Starts with '/'; '/' itself is the root mapping. */
  prefix: string;
  /** host[:port][/path], without a scheme (docs/activities.md#config). */
  target: string;
}

/** An application's embedded activity config, as the developer portal sets it. */
export interface ActivityConfigRecord {
  applicationId: string;
  urlMappings: ActivityUrlMapping[];
  /** "web", "ios", "android". */
  supportedPlatforms: string[];
  /** 1 unlocked, 2 portrait, 3 landscape; null for the platform default. */
  defaultOrientationLockState: number | null;
  tabletDefaultOrientationLockState: number | null;
  requiresAgeGate: boolean;
  updatedAt: number;
}

/** "gc": a guild channel (voice); "pc": a private channel (DM or group DM). */
export type ActivityLocationKind = 'gc' | 'pc';

/** One launch of an activity in a channel; times are epoch ms. */
export interface ActivityInstanceRecord {
  /** i-<launchId>-gc-<guildId>-<channelId> or i-<launchId>-pc-<channelId>. */
  id: string;
  applicationId: string;
  /** A snowflake minted at launch. */
  launchId: string;
  locationKind: ActivityLocationKind;
  channelId: string;
  guildId: string | null;
  launchedBy: string;
  createdAt: number;
  /** When its last participant left; null while live. */
  endedAt: number | null;
}

export interface ActivityParticipantRecord {
  instanceId: string;
  userId: string;
  joinedAt: number;
}

export interface ActivityRepository {
  /**
   * The proxy host's routing table: the app's URL mappings, or null when the app has no
   * activity config (then nothing is proxied for it).
   */
  urlMappings(applicationId: string): Promise<ActivityUrlMapping[] | null>;
  findConfig(applicationId: string): Promise<ActivityConfigRecord | null>;
  /** Creates or replaces the application's config. */
  saveConfig(config: ActivityConfigRecord): Promise<void>;
  findInstance(instanceId: string): Promise<ActivityInstanceRecord | null>;
  /**
   * Reads an instance and, inside a PostgreSQL transaction, locks its row until the transaction
   * ends: a join and a leave of one instance run one after the other.
   */
  lockInstance(instanceId: string): Promise<ActivityInstanceRecord | null>;
  /** The application's live (not ended) instance in the channel, if any. */
  findLiveInstance(
    applicationId: string,
    channelId: string,
  ): Promise<ActivityInstanceRecord | null>;
  /** The live instances in a channel, oldest first. */
  listLiveInstances(channelId: string): Promise<ActivityInstanceRecord[]>;
  /**
   * Creates a live instance: false when the application already has a live one in that channel
   * (a concurrent launch won; read it with `findLiveInstance`).
   */
  createInstance(instance: Omit<ActivityInstanceRecord, 'endedAt'>): Promise<boolean>;
  /** Adds a participant to an instance: false when they already were one. */
  addParticipant(participant: ActivityParticipantRecord): Promise<boolean>;
  /** Removes a participant: false when they were not one. */
  removeParticipant(instanceId: string, userId: string): Promise<boolean>;
  /** An instance's participants, in the order they joined. */
  listParticipants(instanceId: string): Promise<ActivityParticipantRecord[]>;
  /**
   * Ends a live instance that has no participant left, atomically against a join: true when
   * this call ended it.
   */
  endIfEmpty(instanceId: string, at: number): Promise<boolean>;
  /** The live instances the user takes part in (to leave them when they leave the channel). */
  listLiveInstancesOfUser(userId: string): Promise<ActivityInstanceRecord[]>;
}
