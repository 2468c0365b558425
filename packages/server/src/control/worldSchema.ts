/**
 * @module control/worldSchema: the shape of a world file (docs/testing.md#worlds). The world
 * names everything (people, guilds, applications…) by keys of its own; the loader (world.ts)
 * turns those names into ids. The bodies a world passes to the API (a command, a role's
 * fields) are checked again by the resource's own schema when the world loads, with the same
 * rules as a request.
 */
import { z } from 'zod';

/** A name a world gives to a person, guild, channel…: what `world.people.alice` is keyed by. */
export const WorldName = z.string().regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]{0,63}$/, {
  message: 'A name is 1 to 64 letters, digits, "_", "." or "-", not starting with "." or "-".',
});

/** Permissions: the names of permission bits (`SEND_MESSAGES`) or a bitset as a string. */
const Permissions = z.union([
  z.array(z.string().regex(/^[A-Z_]+$/, { message: 'A permission name such as SEND_MESSAGES.' })),
  z.string().regex(/^\d{1,64}$/, { message: 'A permission bitset as a decimal string.' }),
]);

const Person = z.strictObject({
  /** The login name; by default the person's name in the world, in lower case. */
  username: z.string().optional(),
  global_name: z.string().optional(),
  /** By default `<username>@world.guildhall.localhost`. */
  email: z.string().optional(),
  /** Absent: the person has no password and signs in with the token the world gives. */
  password: z.string().optional(),
});

const Command = z
  .looseObject({
    /** Absent: the command's name in the world. */
    name: z.string().optional(),
    /** A guild of the world: a guild command there; absent, a global command. */
    guild: WorldName.optional(),
  })
  .describe('A command as POST /applications/{id}/commands takes it (and `guild`).');

const Sku = z.strictObject({
  name: z.string().optional(),
  /** durable, consumable, subscription or subscription_group (or the type's number). */
  type: z.union([
    z.enum(['durable', 'consumable', 'subscription', 'subscription_group']),
    z.number().int(),
  ]),
  slug: z.string().optional(),
  flags: z.number().int().optional(),
});

const Entitlement = z
  .strictObject({
    sku: WorldName,
    /** The person who owns it, or… */
    user: WorldName.optional(),
    /** …the guild that owns it. */
    guild: WorldName.optional(),
  })
  .refine((e) => (e.user === undefined) !== (e.guild === undefined), {
    message: 'An entitlement names a user or a guild, not both.',
  });

const PRIVILEGED_INTENTS = ['GUILD_MEMBERS', 'GUILD_PRESENCES', 'MESSAGE_CONTENT'] as const;
export type WorldPrivilegedIntent = (typeof PRIVILEGED_INTENTS)[number];

const Application = z.strictObject({
  /** Absent: the application's name in the world. */
  name: z.string().optional(),
  /** The person who owns it (the developer). */
  owner: WorldName,
  description: z.string().optional(),
  /** Privileged intents turned on (their self-serve flags, as a developer does in the portal). */
  intents: z.array(z.enum(PRIVILEGED_INTENTS)).optional(),
  /** Where interactions are POSTed; it must answer the platform's PING when the world loads. */
  interactions_endpoint_url: z.string().optional(),
  /** Where webhook events are POSTed. */
  event_webhooks_url: z.string().optional(),
  event_webhooks_types: z.array(z.string()).optional(),
  event_webhooks_status: z.number().int().optional(),
  /** Application flags over those `intents` turns on. */
  flags: z.number().int().optional(),
  redirect_uris: z.array(z.string()).optional(),
  bot_public: z.boolean().optional(),
  bot_require_code_grant: z.boolean().optional(),
  public_client: z.boolean().optional(),
  commands: z.record(WorldName, Command).optional(),
  skus: z.record(WorldName, Sku).optional(),
  entitlements: z.record(WorldName, Entitlement).optional(),
});

const CHANNEL_TYPES = [
  'text',
  'voice',
  'category',
  'announcement',
  'stage',
  'forum',
  'media',
] as const;
export type WorldChannelType = (typeof CHANNEL_TYPES)[number];

const Overwrite = z.strictObject({
  /** A role of the guild, `@everyone`, or… */
  role: z.string().optional(),
  /** …a person (or an application's bot) of the world. */
  member: WorldName.optional(),
  allow: Permissions.optional(),
  deny: Permissions.optional(),
});

/** A channel; the guild's channels are placed in the order the world lists them. */
const Channel = z.strictObject({
  /** Absent: the channel's name in the world. */
  name: z.string().optional(),
  type: z.union([z.enum(CHANNEL_TYPES), z.number().int()]).optional(),
  /** A category of the same guild. */
  parent: WorldName.optional(),
  topic: z.string().optional(),
  nsfw: z.boolean().optional(),
  rate_limit_per_user: z.number().int().optional(),
  bitrate: z.number().int().optional(),
  user_limit: z.number().int().optional(),
  permission_overwrites: z.array(Overwrite).optional(),
});

const Role = z.strictObject({
  name: z.string().optional(),
  permissions: Permissions.optional(),
  color: z.number().int().optional(),
  hoist: z.boolean().optional(),
  mentionable: z.boolean().optional(),
});

const Member = z.strictObject({
  nick: z.string().optional(),
  /** Roles of the guild by their names in the world. */
  roles: z.array(WorldName).optional(),
});

const Bot = z.strictObject({
  /** The permissions of the bot's managed role (as the install link grants them). */
  permissions: Permissions.optional(),
});

const Guild = z.strictObject({
  name: z.string().optional(),
  /** The person who owns it (a member with every permission). */
  owner: WorldName,
  description: z.string().optional(),
  roles: z.record(WorldName, Role).optional(),
  /** Absent: the guild has the channels a new guild has. */
  channels: z.record(WorldName, Channel).optional(),
  /** People who are members (the owner always is), with their nicknames and roles. */
  members: z.record(WorldName, z.union([Member, z.null()])).optional(),
  /** Applications whose bots are in the guild (installed with the `bot` scope). */
  bots: z.record(WorldName, z.union([Bot, z.null()])).optional(),
});

const Relationship = z.strictObject({
  /** The person who acts: sends the friend request or blocks. */
  from: WorldName,
  to: WorldName,
  /** friend: both agree; request: `from` asked, `to` has not answered; block: `from` blocks. */
  type: z.enum(['friend', 'request', 'block']),
});

const LobbyMember = z.strictObject({
  metadata: z.record(z.string(), z.string()).optional(),
  flags: z.number().int().optional(),
});

const Lobby = z.strictObject({
  application: WorldName,
  members: z.record(WorldName, z.union([LobbyMember, z.null()])).optional(),
  metadata: z.record(z.string(), z.string()).optional(),
  idle_timeout_seconds: z.number().int().optional(),
});

/** A world file (JSON or YAML): everything a test starts from, by name. */
export const WorldFileSchema = z.strictObject({
  /** The world file's schema (for editors); ignored by the loader. */
  $schema: z.string().optional(),
  /** Ids and tokens follow from it: the same world with the same seed has the same ids. */
  seed: z.string().optional(),
  people: z.record(WorldName, z.union([Person, z.null()])).optional(),
  applications: z.record(WorldName, Application).optional(),
  guilds: z.record(WorldName, Guild).optional(),
  relationships: z.array(Relationship).optional(),
  lobbies: z.record(WorldName, Lobby).optional(),
});

export type WorldFile = z.input<typeof WorldFileSchema>;
export type ParsedWorld = z.output<typeof WorldFileSchema>;
export type WorldApplication = z.output<typeof Application>;
export type WorldGuild = z.output<typeof Guild>;
export type WorldChannel = z.output<typeof Channel>;
