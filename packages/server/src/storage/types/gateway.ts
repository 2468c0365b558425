/** The gateway's own tables: voice states, intent approvals, privacy settings and resumable sessions. */

/** A member connected to a voice channel (gateway op 4). */
export interface VoiceStateRecord {
  guildId: string;
  userId: string;
  channelId: string;
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  selfVideo: boolean;
  joinedAt: number;
  /** In a stage channel: a listener, not a speaker (migration 0034). */
  suppress: boolean;
  /** When the user raised their hand in a stage channel (epoch ms), or null. */
  requestToSpeakAt: number | null;
}

/** A privileged intent approval: valid until `expiresAt`, or `pending` while in review. */
export interface IntentApprovalRecord {
  applicationId: string;
  intent: 'GUILD_MEMBERS' | 'GUILD_PRESENCES' | 'MESSAGE_CONTENT';
  status: 'approved' | 'pending';
  approvedAt: number | null;
  expiresAt: number | null;
}

/** A resumable gateway session as another node needs it, with its replay buffer. */
export interface GatewaySessionRecord {
  id: string;
  userId: string;
  /** The session's settings as JSON (intents, shard, guilds...). */
  state: string;
  seq: number;
  updatedAt: number;
  /** The gateway node serving it (its heartbeat is {@link GatewayRepository.heartbeatNode}'s). */
  node: string;
}

export interface GatewayReplayEntry {
  sessionId: string;
  seq: number;
  type: string;
  /** `d` as JSON. */
  data: string;
  /**
   * The bus dispatch the entry came from (its envelope id) and when it was published (epoch ms,
   * by the publisher's clock); null for what no dispatch brought (a join's GUILD_CREATE).
   */
  source: { id: string; publishedAt: number } | null;
}

/** Who sees a user's custom status (spec, Gateway events: Presence Update). */
export type ProfilePrivacy = 'everyone' | 'friends' | 'friends_and_small_servers';

/** The gateway's own tables. */
export interface GatewayRepository {
  listVoiceStates(guildIds: readonly string[]): Promise<VoiceStateRecord[]>;
  findVoiceState(guildId: string, userId: string): Promise<VoiceStateRecord | null>;
  /** Whether the user is connected to this voice channel. */
  isInVoiceChannel(userId: string, channelId: string): Promise<boolean>;
  /** The voice states a gateway session holds (one per guild at most). */
  listVoiceStatesOfSession(sessionId: string): Promise<VoiceStateRecord[]>;
  putVoiceState(state: VoiceStateRecord): Promise<void>;
  deleteVoiceState(guildId: string, userId: string): Promise<boolean>;
  countInVoiceChannel(channelId: string): Promise<number>;
  /** Voice session start times (epoch ms) of the given channels that have one. */
  voiceStartTimes(channelIds: readonly string[]): Promise<Map<string, number>>;
  setVoiceStartTime(channelId: string, startedAt: number | null): Promise<void>;
  listIntentApprovals(applicationId: string): Promise<IntentApprovalRecord[]>;
  putIntentApproval(approval: IntentApprovalRecord): Promise<void>;
  privateChannelObfuscation(applicationId: string): Promise<boolean>;
  setPrivateChannelObfuscation(applicationId: string, on: boolean): Promise<void>;
  profilePrivacy(userId: string): Promise<ProfilePrivacy>;
  setProfilePrivacy(userId: string, setting: ProfilePrivacy): Promise<void>;
  /** Saves a session over its earlier row, if any (a node taking it over names itself). */
  saveSession(session: GatewaySessionRecord): Promise<void>;
  findSession(id: string): Promise<GatewaySessionRecord | null>;
  deleteSession(id: string): Promise<void>;
  /** Appends replay entries; a session keeps about its last `keep` (trimmed every 64th). */
  appendReplay(entries: readonly GatewayReplayEntry[], keep: number): Promise<void>;
  /** A session's entries after `seq`, in order. */
  replaySince(sessionId: string, seq: number): Promise<GatewayReplayEntry[]>;
  /** Records that gateway node `node` is alive at `at` (epoch ms). */
  heartbeatNode(node: string, at: number): Promise<void>;
  /**
   * Deletes up to `limit` sessions (their replay entries with them) of nodes not heard from since
   * `deadBefore`, and of nodes never heard from saved before it; then, when fewer were left, the
   * rows of such nodes that serve nothing more. Returns how many sessions it deleted.
   */
  sweepDeadNodes(deadBefore: number, limit: number): Promise<number>;
}
