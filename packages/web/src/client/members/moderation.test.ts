import { describe, expect, it } from 'vitest';
import { PermissionFlagsBits, type APIGuild, type APIRole } from 'discord-api-types/v10';
import { assignableRoles, memberActions } from './moderation.js';

const role = (id: string, position: number, permissions = 0n) =>
  ({ id, name: id, position, permissions: String(permissions), managed: id === 'bot' }) as APIRole;

const MODERATOR =
  PermissionFlagsBits.KickMembers |
  PermissionFlagsBits.BanMembers |
  PermissionFlagsBits.ManageRoles;

const guild = {
  id: 'g',
  owner_id: 'owner',
  roles: [
    role('g', 0),
    role('mod', 3, MODERATOR),
    role('crew', 2),
    role('bot', 1),
    role('admin', 4, PermissionFlagsBits.Administrator),
  ],
} as unknown as APIGuild;

/** `[meId, …their roles]` acting on `[targetId, …their roles]`. */
const actions = ([meId = '', ...myRoles]: string[], [targetId = '', ...theirRoles]: string[]) =>
  memberActions({ guild, me: { roles: myRoles }, meId, target: { roles: theirRoles }, targetId });

describe('memberActions', () => {
  it('offers the owner every action on anyone but themselves, and nothing on the owner', () => {
    expect(actions(['owner'], ['a', 'admin'])).toEqual(['roles', 'timeout', 'kick', 'ban']);
    expect(actions(['owner'], ['owner'])).toEqual([]);
    expect(actions(['a', 'admin'], ['owner'])).toEqual([]);
  });

  it('follows the permissions held and the role hierarchy', () => {
    expect(actions(['m', 'mod'], ['c', 'crew'])).toEqual(['roles', 'kick', 'ban']);
    // An equal or higher role is out of reach.
    expect(actions(['m', 'mod'], ['n', 'mod'])).toEqual([]);
    expect(actions(['m', 'mod'], ['a', 'admin'])).toEqual([]);
    // Without the permissions: nothing.
    expect(actions(['c', 'crew'], ['x'])).toEqual([]);
    // Oneself: one's roles only.
    expect(actions(['m', 'mod'], ['m', 'mod'])).toEqual(['roles']);
  });
});

describe('assignableRoles', () => {
  it('lists the roles below one’s highest, never @everyone or a managed role', () => {
    expect(assignableRoles(guild, { roles: ['mod'] }, 'm').map((r) => r.id)).toEqual(['crew']);
    expect(assignableRoles(guild, undefined, 'owner').map((r) => r.id)).toEqual([
      'admin',
      'mod',
      'crew',
    ]);
  });
});
