/**
 * @module control/worldGuilds: a world's guilds, made as their owners would: POST /guilds with
 * the roles and channels, the bots added, the members joining by an invite (deleted after),
 * their nicknames and roles set, and the overwrites of single members put.
 */
import { ChannelTypes, PermissionFlags } from '@guildhall/protocol';
import { PutOverwriteBody } from '../resources/channels/index.js';
import { CreateGuildBody, guildTemplate } from '../resources/guilds/index.js';
import { CreateInviteBody } from '../resources/invites/index.js';
import { ModifyMemberBody } from '../resources/members/index.js';
import { WorldError } from './worldFile.js';
import type { ParsedWorld, WorldChannel, WorldGuild } from './worldSchema.js';
import {
  bodyOf,
  permissionBits,
  principalOf,
  seeded,
  step,
  type WorldContext,
} from './worldSteps.js';
import type { LoadedApplication, LoadedGuild, LoadedPerson } from './worldTypes.js';

const CHANNEL_TYPES: Record<string, number> = {
  text: ChannelTypes.GUILD_TEXT,
  voice: ChannelTypes.GUILD_VOICE,
  category: ChannelTypes.GUILD_CATEGORY,
  announcement: ChannelTypes.GUILD_ANNOUNCEMENT,
  stage: ChannelTypes.GUILD_STAGE_VOICE,
  forum: ChannelTypes.GUILD_FORUM,
  media: ChannelTypes.GUILD_MEDIA,
};
const typeOf = (channel: WorldChannel) =>
  typeof channel.type === 'number' ? channel.type : CHANNEL_TYPES[channel.type ?? 'text'];

interface Loaded {
  people: Record<string, LoadedPerson>;
  applications: Record<string, LoadedApplication>;
}

/** One guild of the world being loaded: its name, what the world says, what is made so far. */
interface GuildStep {
  context: WorldContext;
  name: string;
  guild: WorldGuild;
  made: LoadedGuild;
  loaded: Loaded;
  owner: LoadedPerson;
}

/**
 * The POST /guilds body of a world's guild: roles and channels under placeholder ids (roles
 * from 1, @everyone 0; channels after the roles), categories first.
 */
function createBody(name: string, guild: WorldGuild, path: (string | number)[]) {
  const roleNames = Object.keys(guild.roles ?? {});
  const roleRef = (role: string) =>
    role === '@everyone' ? '0' : String(roleNames.indexOf(role) + 1);
  const channels = Object.entries(guild.channels ?? {}).sort(
    ([, a], [, b]) =>
      Number(typeOf(b) === ChannelTypes.GUILD_CATEGORY) -
      Number(typeOf(a) === ChannelTypes.GUILD_CATEGORY),
  );
  const channelRef = (channel: string) =>
    String(roleNames.length + 1 + channels.findIndex(([key]) => key === channel));
  const body = {
    name: guild.name ?? name,
    roles: [
      { id: '0' },
      ...Object.entries(guild.roles ?? {}).map(([key, role]) => ({
        id: roleRef(key),
        name: role.name ?? key,
        ...role,
        permissions: permissionBits(role.permissions, PermissionFlags, [
          ...path,
          'roles',
          key,
          'permissions',
        ]),
      })),
    ],
    ...(guild.channels === undefined
      ? {}
      : {
          channels: channels.map(([key, channel]) => {
            const { parent, permission_overwrites: overwrites = [], ...fields } = channel;
            const at = [...path, 'channels', key, 'permission_overwrites'];
            return {
              ...fields,
              id: channelRef(key),
              name: channel.name ?? key,
              type: typeOf(channel),
              ...(parent === undefined ? {} : { parent_id: channelRef(parent) }),
              permission_overwrites: overwrites.flatMap((o, i) =>
                o.role === undefined
                  ? []
                  : [
                      {
                        id: roleRef(o.role),
                        type: 0,
                        allow: permissionBits(o.allow, PermissionFlags, [...at, i, 'allow']),
                        deny: permissionBits(o.deny, PermissionFlags, [...at, i, 'deny']),
                      },
                    ],
              ),
            };
          }),
        }),
  };
  // A mistake in the body names the world's keys, not the body's indexes.
  const rename = (issuePath: string) =>
    issuePath
      .replace(
        /\.roles\[(\d+)\]/,
        (_, i: string) => `.roles.${roleNames[Number(i) - 1] ?? '@everyone'}`,
      )
      .replace(
        /\.channels\[(\d+)\]/,
        (_, i: string) => `.channels.${channels[Number(i)]?.[0] ?? i}`,
      );
  return { body, channelKeys: channels.map(([key]) => key), roleNames, rename };
}

/** Makes one guild with its roles and channels; returns their ids by the world's names. */
async function createGuild(
  context: WorldContext,
  { name, guild }: { name: string; guild: WorldGuild },
  owner: LoadedPerson,
) {
  const path = ['guilds', name];
  const { body, channelKeys, roleNames, rename } = createBody(name, guild, path);
  const created = await (async () => {
    const input = bodyOf(CreateGuildBody, body, path);
    return step(path, () =>
      seeded(context, `guild:${name}`, () =>
        context.app.services.guilds.create(guildTemplate(owner.id, input, null)),
      ),
    );
  })().catch((err: unknown) => {
    if (!(err instanceof WorldError)) throw err;
    throw new WorldError(err.issues.map((issue) => ({ ...issue, path: rename(issue.path) })));
  });
  const guildId = created.guild.id;
  const channels = Object.fromEntries(
    created.channels.map((channel, i): [string, string] => [
      guild.channels === undefined ? (channel.name ?? channel.id) : (channelKeys[i] ?? channel.id),
      channel.id,
    ]),
  );
  // Right after the create, a world role sits at its place in the list plus one.
  const made = await context.app.storage.roles.listByGuild(guildId);
  const roles: Record<string, string> = { '@everyone': guildId };
  roleNames.forEach((role, i) => {
    const record = made.find((r) => r.position === i + 1);
    if (record !== undefined) roles[role] = record.id;
  });
  return { id: guildId, channels, roles } satisfies LoadedGuild;
}

/** Members join through an invite of the owner's, which is deleted once they are in. */
async function join({ context, name, guild, made, loaded, owner: ownerToken }: GuildStep) {
  const { app } = context;
  const members = Object.keys(guild.members ?? {}).filter((m) => m !== guild.owner);
  if (members.length === 0) return;
  const path = ['guilds', name, 'members'];
  const channels = await app.storage.channels.listByGuild(made.id);
  const door = channels.find((c) => c.type !== ChannelTypes.GUILD_CATEGORY);
  if (door === undefined) {
    throw new WorldError([
      {
        path: `guilds.${name}.members`,
        message: 'Members join through an invite to a channel: give the guild a channel.',
      },
    ]);
  }
  const owner = await principalOf(app, ownerToken.id, { kind: 'session', value: ownerToken.token });
  const input = bodyOf(CreateInviteBody, { max_age: 0, max_uses: 0, unique: true }, path);
  const invite = await step(path, () =>
    app.services.invites.create(
      owner,
      { channelId: door.id, reason: null, fileUserIds: null },
      input,
    ),
  );
  for (const member of members) {
    const person = loaded.people[member];
    if (person === undefined) continue;
    const principal = await principalOf(app, person.id, { kind: 'session', value: person.token });
    await step([...path, member], () =>
      seeded(context, `guild:${name}/member:${member}`, () =>
        app.services.invites.accept(principal, invite.code),
      ),
    );
  }
  await step(path, () => app.services.invites.delete(owner, { code: invite.code, reason: null }));
}

/** Nicknames, roles and single members' overwrites, set by the owner. */
async function arrange({ context, name, guild, made, loaded, owner }: GuildStep) {
  const { app } = context;
  const principal = await principalOf(app, owner.id, { kind: 'session', value: owner.token });
  for (const [member, settings] of Object.entries(guild.members ?? {})) {
    const person = loaded.people[member];
    if (settings === null || person === undefined) continue;
    const at = ['guilds', name, 'members', member];
    const patch = {
      ...(settings.nick === undefined ? {} : { nick: settings.nick }),
      ...(settings.roles === undefined
        ? {}
        : { roles: settings.roles.map((role) => made.roles[role]) }),
    };
    if (Object.keys(patch).length === 0) continue;
    const input = bodyOf(ModifyMemberBody, patch, at);
    await step(at, () =>
      seeded(context, `guild:${name}/member:${member}/settings`, () =>
        app.services.members.modify(
          principal,
          { guildId: made.id, userId: person.id, reason: null },
          input,
        ),
      ),
    );
  }
  for (const [channelName, channel] of Object.entries(guild.channels ?? {})) {
    for (const [i, overwrite] of (channel.permission_overwrites ?? []).entries()) {
      if (overwrite.member === undefined) continue;
      const at = ['guilds', name, 'channels', channelName, 'permission_overwrites', i];
      const target =
        loaded.people[overwrite.member]?.id ?? loaded.applications[overwrite.member]?.botUserId;
      const channelId = made.channels[channelName];
      if (target === undefined || channelId === undefined) continue;
      const body = bodyOf(
        PutOverwriteBody,
        {
          type: 1,
          allow: permissionBits(overwrite.allow, PermissionFlags, [...at, 'allow']),
          deny: permissionBits(overwrite.deny, PermissionFlags, [...at, 'deny']),
        },
        at,
      );
      await step(at, () =>
        app.services.overwrites.put(
          principal,
          { channelId, overwriteId: target },
          { ...body, reason: null },
        ),
      );
    }
  }
}

/** Makes every guild of the world with its bots and members. */
export async function loadGuilds(
  context: WorldContext,
  world: ParsedWorld,
  loaded: Loaded,
): Promise<Record<string, LoadedGuild>> {
  const guilds: Record<string, LoadedGuild> = {};
  for (const [name, guild] of Object.entries(world.guilds ?? {})) {
    const owner = loaded.people[guild.owner];
    if (owner === undefined) continue;
    const made = await createGuild(context, { name, guild }, owner);
    for (const [appName, bot] of Object.entries(guild.bots ?? {})) {
      const application = loaded.applications[appName];
      if (application === undefined) continue;
      const at = ['guilds', name, 'bots', appName];
      const bits = permissionBits(bot?.permissions, PermissionFlags, [...at, 'permissions']);
      await step(at, () =>
        seeded(context, `guild:${name}/bot:${appName}`, () =>
          context.app.services.guilds.addBot({
            guildId: made.id,
            applicationId: application.id,
            permissions: BigInt(bits ?? '0'),
            actorId: owner.id,
          }),
        ),
      );
    }
    const guildStep = { context, name, guild, made, loaded, owner };
    await join(guildStep);
    await arrange(guildStep);
    guilds[name] = made;
  }
  return guilds;
}
