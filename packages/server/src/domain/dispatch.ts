/**
 * The gateway dispatch as a service announces it, typed by its name. A leaf, so the storage
 * contract can carry what a transaction announces (`CommitScope` in storage/types/storage.ts),
 * events/dispatcher.ts can publish it and the gateway can read it back (gateway/decode.ts).
 *
 * @module
 */

/**
 * The payload (`d`) of each dispatch name, as the platform sends it to a session that may see all
 * of it. Empty here: the resource that builds a dispatch registers its name and payload type from
 * its own dispatch file by module augmentation, since this leaf may not import `resources/`:
 *
 *     declare module '../../domain/dispatch.js' {
 *       interface DispatchPayloads { GUILD_BAN_ADD: BanPayload }
 *     }
 *
 * Every file of the server's program is compiled together, so each registration holds wherever
 * `Dispatch` is used: a service can only announce a registered name with its payload, and the
 * gateway narrows a decoded dispatch's `data` by its `type`.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- each resource adds its names
export interface DispatchPayloads {}

/** Every dispatch name a service may announce. */
export type DispatchName = keyof DispatchPayloads;

/**
 * Where a dispatch goes, whatever its name. The gateway decides per session whether and how each
 * session sees it (intents, VIEW_CHANNEL, MESSAGE_CONTENT, obfuscation, presence privacy);
 * services only say what happened and where.
 */
export interface DispatchRoute {
  /** The guild the event belongs to; null for events addressed only to users (USER_UPDATE, DMs). */
  guildId: string | null;
  /** The channel whose VIEW_CHANNEL gates the event, when one does. */
  channelId?: string;
  /**
   * Users who receive the event directly, whatever their guilds (DM recipients, USER_UPDATE). On
   * a guild event: the users it brings into the guild (GUILD_MEMBER_ADD's member), whose gateway
   * nodes may not serve the guild yet and learn from it to join them.
   */
  userIds?: readonly string[];
  /**
   * The application (game) a user-addressed dispatch belongs to: a lobby's, a game DM's, a game
   * relationship's. The user's SDK sessions of another application and bot sessions do not
   * receive it (gateway/routing.ts). Absent: not scoped.
   */
  applicationId?: string;
  /**
   * A user-addressed dispatch one shard of a bot receives (INTERACTION_CREATE): only the
   * session whose shard holds this guild, or shard 0 for `guildId: null` (a DM), as guild
   * dispatches go to one shard. Absent: every session of the user.
   */
  shard?: { guildId: string | null };
  /**
   * The one session that receives it (VOICE_SERVER_UPDATE: the session that sent op 4). On the
   * same subject as the dispatches before it, it reaches the session after them, in order.
   * Absent: every session the other rules allow.
   */
  sessionId?: string;
  /**
   * The private call (a lobby's id, a DM channel's id) whose voice node needs this dispatch (its
   * voice states): published once more on the call's subject (`voiceCallSubject`, events/dispatcher.ts), which a
   * voice node watches instead of its members' whole user subjects.
   */
  voiceCall?: string;
}

/**
 * The name and payload of a dispatch: a union over the names `K`, so `{ type: 'MESSAGE_CREATE',
 * data }` must carry the MESSAGE_CREATE payload and a check of `type` narrows `data`.
 */
export type DispatchBody<K extends DispatchName = DispatchName> = K extends DispatchName
  ? {
      /** The dispatch name, e.g. `MESSAGE_CREATE`. */
      type: K;
      /** The wire payload (`d`), as the platform sends it to a session that may see all of it. */
      data: DispatchPayloads[K];
    }
  : never;

/** One gateway dispatch as a service announces it, after its transaction commits. */
export type Dispatch<K extends DispatchName = DispatchName> = DispatchRoute & DispatchBody<K>;

/** The payload of the dispatch named `K`. */
export type DispatchData<K extends DispatchName> = DispatchPayloads[K];
