/** The platform's numbers for application commands (docs/commands.md#limits). */
export const COMMAND_LIMITS = {
  /** CHAT_INPUT commands per scope (the global commands, or one guild's). */
  maxChatInput: 100,
  /** USER and MESSAGE commands per scope, each (15 since 2026-03-03; 5 before). */
  maxContextMenu: 15,
  /** PRIMARY_ENTRY_POINT commands per application (global only). */
  maxEntryPoint: 1,
  /** Options of a command or of a subcommand; choices of an option. */
  maxOptions: 25,
  maxChoices: 25,
  maxName: 32,
  maxDescription: 100,
  maxChoiceName: 100,
  maxChoiceValue: 6000,
  /** min_length and max_length of a STRING option. */
  maxStringLength: 6000,
  /** Overwrites of one command in one guild. */
  maxPermissions: 100,
  /** Characters of a command's names, descriptions and choice names and values, together. */
  maxTotalCharacters: 8000,
  /** Entries of an ATTACHMENT option's `file_types`. */
  maxFileTypes: 10,
} as const;

/** Command types. */
export const CommandType = {
  CHAT_INPUT: 1,
  USER: 2,
  MESSAGE: 3,
  PRIMARY_ENTRY_POINT: 4,
} as const;

/** Option types. */
export const OptionType = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

/** Interaction context types. */
export const InteractionContext = { GUILD: 0, BOT_DM: 1, PRIVATE_CHANNEL: 2 } as const;

/** Installation types. */
export const IntegrationType = { GUILD_INSTALL: 0, USER_INSTALL: 1 } as const;

/** Targets of a command permission overwrite. */
export const CommandPermissionType = { ROLE: 1, USER: 2, CHANNEL: 3 } as const;

/** PRIMARY_ENTRY_POINT handlers. */
export const EntryPointHandler = { APP_HANDLER: 1, DISCORD_LAUNCH_ACTIVITY: 2 } as const;
