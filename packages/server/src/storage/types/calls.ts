/** DM and group-DM calls and their voice states (migrations 0039, 0040). */

/** A private channel's ongoing call. */
export interface DmCallRecord {
  channelId: string;
  /** The call's system message (type 3 CALL). */
  messageId: string;
  region: string;
  /** Recipients being rung now, in the order they were rung. */
  ringing: string[];
  /** Everyone who joined the call so far, in the order they first joined. */
  participants: string[];
  startedAt: number;
  /** When ringing last started: the call's start, or a ring request that added someone. */
  rangAt: number;
}

/** A recipient in its private channel's call, joined from one gateway session. */
export interface DmVoiceStateRecord {
  userId: string;
  channelId: string;
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
  selfVideo: boolean;
  joinedAt: number;
}

export interface CallRepository {
  /** Serialises changes to one channel's call (PostgreSQL row lock on the channel). */
  lock(channelId: string): Promise<void>;
  findCall(channelId: string): Promise<DmCallRecord | null>;
  /** The calls in progress in the private channels the user is a recipient of (any order). */
  listCallsOfRecipient(userId: string): Promise<DmCallRecord[]>;
  /** Up to `limit` calls ringing someone since `rangAtOrBefore` or earlier, oldest ring first. */
  listRingingSince(rangAtOrBefore: number, limit: number): Promise<DmCallRecord[]>;
  /** Inserts the call or replaces its ringing and participants. */
  putCall(call: DmCallRecord): Promise<void>;
  deleteCall(channelId: string): Promise<void>;
  /** The user's DM voice state (one at a time), or null. */
  findVoiceState(userId: string): Promise<DmVoiceStateRecord | null>;
  /** The channel's call members, in the order they joined. */
  listVoiceStates(channelId: string): Promise<DmVoiceStateRecord[]>;
  listVoiceStatesOfSession(sessionId: string): Promise<DmVoiceStateRecord[]>;
  putVoiceState(state: DmVoiceStateRecord): Promise<void>;
  /** Returns whether the user had one. */
  deleteVoiceState(userId: string): Promise<boolean>;
}
