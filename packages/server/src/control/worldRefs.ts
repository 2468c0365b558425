/**
 * @module control/worldRefs: a world's names point at things it defines (an application's owner
 * is one of its people, a member's roles are roles of that guild…). Checked before anything is
 * made, so a mistake leaves the server as it was.
 */
import { WorldError, worldPath, type WorldIssue } from './worldFile.js';
import type { ParsedWorld } from './worldSchema.js';

type Path = (string | number)[];

/** Collects every dangling name of the world. */
function collect(world: ParsedWorld): WorldIssue[] {
  const issues: WorldIssue[] = [];
  const need = (names: Record<string, unknown> | undefined, name: string, at: [Path, string]) => {
    const [path, what] = at;
    if (names === undefined || !Object.hasOwn(names, name)) {
      issues.push({ path: worldPath(path), message: `No ${what} is named ${name} in this world.` });
    }
  };
  const people = world.people ?? {};
  const applications = world.applications ?? {};
  const guilds = world.guilds ?? {};

  for (const [name, app] of Object.entries(applications)) {
    const at = ['applications', name];
    need(people, app.owner, [[...at, 'owner'], 'person']);
    for (const [command, body] of Object.entries(app.commands ?? {})) {
      if (body.guild !== undefined)
        need(guilds, body.guild, [[...at, 'commands', command, 'guild'], 'guild']);
    }
    for (const [entitlement, e] of Object.entries(app.entitlements ?? {})) {
      const path = [...at, 'entitlements', entitlement];
      need(app.skus, e.sku, [[...path, 'sku'], 'SKU of this application']);
      if (e.user !== undefined) need(people, e.user, [[...path, 'user'], 'person']);
      if (e.guild !== undefined) need(guilds, e.guild, [[...path, 'guild'], 'guild']);
    }
  }

  for (const [name, guild] of Object.entries(guilds)) {
    const at = ['guilds', name];
    need(people, guild.owner, [[...at, 'owner'], 'person']);
    for (const [member, value] of Object.entries(guild.members ?? {})) {
      need(people, member, [[...at, 'members', member], 'person']);
      value?.roles?.forEach((role, i) => {
        need(guild.roles, role, [[...at, 'members', member, 'roles', i], 'role of this guild']);
      });
    }
    for (const bot of Object.keys(guild.bots ?? {})) {
      need(applications, bot, [[...at, 'bots', bot], 'application']);
    }
    for (const [channelName, channel] of Object.entries(guild.channels ?? {})) {
      const path = [...at, 'channels', channelName];
      if (channel.parent !== undefined) {
        need(guild.channels, channel.parent, [[...path, 'parent'], 'channel of this guild']);
      }
      channel.permission_overwrites?.forEach((overwrite, i) => {
        const where = [...path, 'permission_overwrites', i];
        if ((overwrite.role === undefined) === (overwrite.member === undefined)) {
          issues.push({
            path: worldPath(where),
            message: 'An overwrite names a role or a member.',
          });
        }
        if (overwrite.role !== undefined && overwrite.role !== '@everyone') {
          need(guild.roles, overwrite.role, [[...where, 'role'], 'role of this guild']);
        }
        if (overwrite.member !== undefined && !Object.hasOwn(applications, overwrite.member)) {
          need(people, overwrite.member, [[...where, 'member'], 'person or application']);
        }
      });
    }
  }

  world.relationships?.forEach((relationship, i) => {
    need(people, relationship.from, [['relationships', i, 'from'], 'person']);
    need(people, relationship.to, [['relationships', i, 'to'], 'person']);
    if (relationship.from === relationship.to) {
      issues.push({
        path: worldPath(['relationships', i]),
        message: 'A person has no relationship with themself.',
      });
    }
  });

  for (const [name, lobby] of Object.entries(world.lobbies ?? {})) {
    need(applications, lobby.application, [['lobbies', name, 'application'], 'application']);
    for (const member of Object.keys(lobby.members ?? {})) {
      need(people, member, [['lobbies', name, 'members', member], 'person']);
    }
  }

  // Two people with one login name would fail half-way through: say so now.
  const usernames = new Map<string, string>();
  for (const [name, person] of Object.entries(people)) {
    const username = (person?.username ?? name).toLowerCase();
    const other = usernames.get(username);
    if (other !== undefined) {
      issues.push({
        path: worldPath(['people', name, 'username']),
        message: `${username} is also the username of ${other}.`,
      });
    }
    usernames.set(username, name);
  }
  return issues;
}

/** @throws WorldError naming every name of the world that points at nothing. */
export function checkWorldReferences(world: ParsedWorld, source?: string): void {
  const issues = collect(world);
  if (issues.length > 0) throw new WorldError(issues, source);
}
