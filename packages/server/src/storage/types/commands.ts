/** Application commands (slash and context-menu commands) and their per-guild permissions. */

/** A string-to-string map of locale to text (`name_localizations`, `description_localizations`). */
export type Localizations = Record<string, string>;

/**
 * One option of a command as stored: the validated wire object (snake_case keys, as the platform
 * sends it back), nested for SUB_COMMAND and SUB_COMMAND_GROUP.
 */
export type CommandOptionRecord = Record<string, unknown>;

/** A command of an application: global (`guildId` null) or of one guild. */
export interface ApplicationCommandRecord {
  id: string;
  applicationId: string;
  /** Null for a global command. */
  guildId: string | null;
  /** 1 CHAT_INPUT, 2 USER, 3 MESSAGE, 4 PRIMARY_ENTRY_POINT. */
  type: number;
  name: string;
  nameLocalizations: Localizations | null;
  /** Empty for USER and MESSAGE commands. */
  description: string;
  descriptionLocalizations: Localizations | null;
  options: CommandOptionRecord[];
  /** A permission bitset as a decimal string; null: everyone may use it by default. */
  defaultMemberPermissions: string | null;
  /** The deprecated `dm_permission` as sent (true when never sent). */
  dmPermission: boolean;
  /** Interaction context types (0 GUILD, 1 BOT_DM, 2 PRIVATE_CHANNEL); null: not set. */
  contexts: number[] | null;
  /** Installation types (0 GUILD_INSTALL, 1 USER_INSTALL). */
  integrationTypes: number[];
  nsfw: boolean;
  /** PRIMARY_ENTRY_POINT only: 1 APP_HANDLER, 2 DISCORD_LAUNCH_ACTIVITY. */
  handler: number | null;
  /** A snowflake made anew on every change of the command. */
  version: string;
  createdAt: number;
}

/** One permission overwrite: a role (1), user (2) or channel (3) allowed or denied. */
export interface CommandPermissionRecord {
  id: string;
  type: number;
  permission: boolean;
}

/**
 * The overwrites of one command in one guild; `commandId` equal to `applicationId` holds the
 * application-wide ones.
 */
export interface GuildCommandPermissionsRecord {
  applicationId: string;
  guildId: string;
  commandId: string;
  permissions: CommandPermissionRecord[];
}

export interface CommandRepository {
  /**
   * Holds the application's row until the transaction ends (PostgreSQL `FOR UPDATE`; SQLite
   * writes one transaction at a time): the writes to one application's commands, whose names
   * and counts are checked against the others, go one by one.
   */
  lock(applicationId: string): Promise<void>;
  /** The commands of one scope (`guildId` null: the global ones), by id. */
  listByScope(applicationId: string, guildId: string | null): Promise<ApplicationCommandRecord[]>;
  /** A command of the application, global or of any guild. */
  findById(applicationId: string, commandId: string): Promise<ApplicationCommandRecord | null>;
  create(command: ApplicationCommandRecord): Promise<void>;
  /** Writes every field but the id, application, guild and creation time. */
  replace(command: ApplicationCommandRecord): Promise<void>;
  /** Deletes the command and its permissions in every guild; false when there was none. */
  delete(applicationId: string, commandId: string): Promise<boolean>;

  /** The application's overwrites in the guild (each command's, and the app-wide ones). */
  listPermissions(applicationId: string, guildId: string): Promise<GuildCommandPermissionsRecord[]>;
  findPermissions(
    applicationId: string,
    guildId: string,
    commandId: string,
  ): Promise<GuildCommandPermissionsRecord | null>;
  /** Deletes a command's overwrites in every guild (a renamed command loses them). */
  clearPermissions(applicationId: string, commandId: string): Promise<void>;
  /** Replaces one command's overwrites in the guild; an empty list removes them. */
  putPermissions(record: GuildCommandPermissionsRecord): Promise<void>;
}
