/**
 * @module control/worldSchema: the shape of a world file (docs/worlds.md). The world
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
  username: z
    .string()
    .describe("The login name; by default the person's name in the world, in lower case.")
    .optional(),
  global_name: z.string().optional(),
  email: z.string().describe('By default `<username>@world.guildhall.localhost`.').optional(),
  password: z
    .string()
    .describe('Absent: the person has no password and signs in with the token the world gives.')
    .optional(),
});

const Command = z
  .looseObject({
    name: z.string().describe("Absent: the command's name in the world.").optional(),
    guild: WorldName.describe(
      'A guild of the world: a guild command there; absent, a global command.',
    ).optional(),
    type: z
      .union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)])
      .describe('1 slash (the default), 2 user, 3 message, 4 primary entry point.')
      .optional(),
    description: z.string().optional(),
    options: z
      .array(
        z.looseObject({
          type: z.number().int(),
          name: z.string(),
          description: z.string().optional(),
        }),
      )
      .describe('The options, as the API takes them.')
      .optional(),
    default_member_permissions: z.string().nullable().optional(),
    contexts: z.array(z.number().int()).optional(),
    integration_types: z.array(z.number().int()).optional(),
    nsfw: z.boolean().optional(),
  })
  .describe(
    'A command as POST /applications/{id}/commands takes it, checked by the same rules when the world loads.',
  );

const Sku = z.strictObject({
  name: z.string().optional(),
  type: z.union([
    z
      .enum(['durable', 'consumable', 'subscription', 'subscription_group'])
      .describe("durable, consumable, subscription or subscription_group (or the type's number)."),
    z.number().int(),
  ]),
  slug: z.string().optional(),
  flags: z.number().int().optional(),
});

const Entitlement = z
  .strictObject({
    sku: WorldName,
    user: WorldName.describe('The person who owns it, or…').optional(),
    guild: WorldName.describe('…the guild that owns it.').optional(),
  })
  .refine((e) => (e.user === undefined) !== (e.guild === undefined), {
    message: 'An entitlement names a user or a guild, not both.',
  });

const PRIVILEGED_INTENTS = ['GUILD_MEMBERS', 'GUILD_PRESENCES', 'MESSAGE_CONTENT'] as const;
export type WorldPrivilegedIntent = (typeof PRIVILEGED_INTENTS)[number];

const Application = z.strictObject({
  name: z.string().describe("Absent: the application's name in the world.").optional(),
  owner: WorldName.describe('The person who owns it (the developer).'),
  description: z.string().optional(),
  intents: z
    .array(z.enum(PRIVILEGED_INTENTS))
    .describe(
      'Privileged intents turned on (their self-serve flags, as a developer does in the portal).',
    )
    .optional(),
  interactions_endpoint_url: z
    .string()
    .describe(
      "Where interactions are POSTed; it must answer the platform's PING when the world loads.",
    )
    .optional(),
  event_webhooks_url: z.string().describe('Where webhook events are POSTed.').optional(),
  event_webhooks_types: z.array(z.string()).optional(),
  event_webhooks_status: z.number().int().optional(),
  flags: z.number().int().describe('Application flags over those `intents` turns on.').optional(),
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
  role: z.string().describe('A role of the guild, `@everyone`, or…').optional(),
  member: WorldName.describe("…a person (or an application's bot) of the world.").optional(),
  allow: Permissions.optional(),
  deny: Permissions.optional(),
});

/** A channel; the guild's channels are placed in the order the world lists them. */
const Channel = z.strictObject({
  name: z.string().describe("Absent: the channel's name in the world.").optional(),
  type: z.union([z.enum(CHANNEL_TYPES), z.number().int()]).optional(),
  parent: WorldName.describe('A category of the same guild.').optional(),
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
  roles: z.array(WorldName).describe('Roles of the guild by their names in the world.').optional(),
});

const Bot = z.strictObject({
  permissions: Permissions.describe(
    "The permissions of the bot's managed role (as the install link grants them).",
  ).optional(),
});

const Guild = z.strictObject({
  name: z.string().optional(),
  owner: WorldName.describe('The person who owns it (a member with every permission).'),
  description: z.string().optional(),
  roles: z.record(WorldName, Role).optional(),
  channels: z
    .record(WorldName, Channel)
    .describe('Absent: the guild has the channels a new guild has.')
    .optional(),
  members: z
    .record(WorldName, z.union([Member, z.null()]))
    .describe('People who are members (the owner always is), with their nicknames and roles.')
    .optional(),
  bots: z
    .record(WorldName, z.union([Bot, z.null()]))
    .describe('Applications whose bots are in the guild (installed with the `bot` scope).')
    .optional(),
});

const Relationship = z.strictObject({
  from: WorldName.describe('The person who acts: sends the friend request or blocks.'),
  to: WorldName,
  type: z
    .enum(['friend', 'request', 'block'])
    .describe(
      'friend: both agree; request: `from` asked, `to` has not answered; block: `from` blocks.',
    ),
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
  $schema: z
    .string()
    .describe("The world file's schema (for editors); ignored by the loader.")
    .optional(),
  seed: z
    .string()
    .describe('Ids and tokens follow from it: the same world with the same seed has the same ids.')
    .optional(),
  people: z
    .record(WorldName, z.union([Person, z.null()]))
    .describe('People by name: accounts with a session token each (null: all defaults).')
    .optional(),
  applications: z
    .record(WorldName, Application)
    .describe('Applications by name, each with its bot user and bot token.')
    .optional(),
  guilds: z.record(WorldName, Guild).describe('Guilds by name.').optional(),
  relationships: z
    .array(Relationship)
    .describe('Friends, pending friend requests and blocks between people.')
    .optional(),
  lobbies: z
    .record(WorldName, Lobby)
    .describe('Social SDK lobbies by name, made by their applications.')
    .optional(),
});

/**
 * The world file's JSON Schema, for editors (`"$schema": "…/world.schema.json"`): what
 * packages/server/world.schema.json holds (written by `node scripts/worldSchema.js`).
 */
export function worldJsonSchema(): Record<string, unknown> {
  return {
    ...z.toJSONSchema(WorldFileSchema, { io: 'input', unrepresentable: 'any' }),
    title: 'Guildhall world',
    description:
      'People, guilds, applications, relationships and lobbies a Guildhall server starts with (docs/worlds.md).',
  };
}

export type WorldFile = z.input<typeof WorldFileSchema>;
export type ParsedWorld = z.output<typeof WorldFileSchema>;
export type WorldApplication = z.output<typeof Application>;
export type WorldGuild = z.output<typeof Guild>;
export type WorldChannel = z.output<typeof Channel>;
