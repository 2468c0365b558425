import { PermissionFlagsBits } from 'discord-api-types/v10';
import { describe, expect, it } from 'vitest';
import {
  ALL_PERMISSIONS,
  PERMISSION_ENFORCEMENT_DATES,
  PermissionFlags,
  hasPermission,
  parsePermissions,
  permissionNames,
  serializePermissions,
  type PermissionName,
} from './permissions.js';

const BITS: readonly (readonly [PermissionName, number])[] = [
  ['CREATE_INSTANT_INVITE', 0],
  ['KICK_MEMBERS', 1],
  ['BAN_MEMBERS', 2],
  ['ADMINISTRATOR', 3],
  ['MANAGE_CHANNELS', 4],
  ['MANAGE_GUILD', 5],
  ['ADD_REACTIONS', 6],
  ['VIEW_AUDIT_LOG', 7],
  ['PRIORITY_SPEAKER', 8],
  ['STREAM', 9],
  ['VIEW_CHANNEL', 10],
  ['SEND_MESSAGES', 11],
  ['SEND_TTS_MESSAGES', 12],
  ['MANAGE_MESSAGES', 13],
  ['EMBED_LINKS', 14],
  ['ATTACH_FILES', 15],
  ['READ_MESSAGE_HISTORY', 16],
  ['MENTION_EVERYONE', 17],
  ['USE_EXTERNAL_EMOJIS', 18],
  ['VIEW_GUILD_INSIGHTS', 19],
  ['CONNECT', 20],
  ['SPEAK', 21],
  ['MUTE_MEMBERS', 22],
  ['DEAFEN_MEMBERS', 23],
  ['MOVE_MEMBERS', 24],
  ['USE_VAD', 25],
  ['CHANGE_NICKNAME', 26],
  ['MANAGE_NICKNAMES', 27],
  ['MANAGE_ROLES', 28],
  ['MANAGE_WEBHOOKS', 29],
  ['MANAGE_GUILD_EXPRESSIONS', 30],
  ['USE_APPLICATION_COMMANDS', 31],
  ['REQUEST_TO_SPEAK', 32],
  ['MANAGE_EVENTS', 33],
  ['MANAGE_THREADS', 34],
  ['CREATE_PUBLIC_THREADS', 35],
  ['CREATE_PRIVATE_THREADS', 36],
  ['USE_EXTERNAL_STICKERS', 37],
  ['SEND_MESSAGES_IN_THREADS', 38],
  ['USE_EMBEDDED_ACTIVITIES', 39],
  ['MODERATE_MEMBERS', 40],
  ['VIEW_CREATOR_MONETIZATION_ANALYTICS', 41],
  ['USE_SOUNDBOARD', 42],
  ['CREATE_GUILD_EXPRESSIONS', 43],
  ['CREATE_EVENTS', 44],
  ['USE_EXTERNAL_SOUNDS', 45],
  ['SEND_VOICE_MESSAGES', 46],
  ['SET_VOICE_CHANNEL_STATUS', 48],
  ['SEND_POLLS', 49],
  ['USE_EXTERNAL_APPS', 50],
  ['PIN_MESSAGES', 51],
  ['BYPASS_SLOWMODE', 52],
];

const normalize = (name: string): string => name.replaceAll('_', '').toLowerCase();

describe('PermissionFlags', () => {
  it.each(BITS)('%s is bit %i', (name, bit) => {
    expect(PermissionFlags[name]).toBe(1n << BigInt(bit));
  });

  it('has exactly the bits listed, each a single distinct bit', () => {
    expect(Object.keys(PermissionFlags)).toEqual(BITS.map(([name]) => name));
  });

  it('matches the reference library name for name and value', () => {
    const reference = new Map(
      Object.entries(PermissionFlagsBits).map(([name, value]) => [normalize(name), value]),
    );
    for (const [name, value] of Object.entries(PermissionFlags)) {
      expect({ name, value: reference.get(normalize(name)) }).toEqual({ name, value });
    }
    expect(new Set(Object.values(PermissionFlags))).toEqual(
      new Set(Object.values(PermissionFlagsBits)),
    );
  });
});

describe('ALL_PERMISSIONS', () => {
  it('is bits 0 to 52 except the unassigned bit 47', () => {
    expect(ALL_PERMISSIONS).toBe(((1n << 53n) - 1n) & ~(1n << 47n));
  });
});

describe('parsePermissions', () => {
  it('parses decimal strings, leading zeros included', () => {
    expect(parsePermissions('0')).toBe(0n);
    expect(parsePermissions('2048')).toBe(PermissionFlags.SEND_MESSAGES);
    expect(parsePermissions('0008')).toBe(PermissionFlags.ADMINISTRATOR);
    expect(parsePermissions(ALL_PERMISSIONS.toString())).toBe(ALL_PERMISSIONS);
  });

  it('parses exactly past 2^53, with no float rounding', () => {
    // 2^53 + 2^52 + 1: a float would lose the lowest bit; bit 53 is then masked off.
    const bits = PermissionFlags.BYPASS_SLOWMODE | PermissionFlags.CREATE_INSTANT_INVITE;
    expect(parsePermissions('13510798882111489')).toBe(bits);
  });

  it('drops bits that name no permission', () => {
    const value = (1n << 47n) | (1n << 53n) | (1n << 100n) | PermissionFlags.KICK_MEMBERS;
    expect(parsePermissions(value.toString())).toBe(PermissionFlags.KICK_MEMBERS);
  });

  it.each(['', '-1', '+1', ' 1', '1 ', '0x10', '1e3', '1.0', '1_000', '１', 'NaN', '1n'])(
    'rejects %j with a TypeError',
    (value) => {
      expect(() => parsePermissions(value)).toThrow(TypeError);
    },
  );

  it('accepts 64 digits and rejects 65', () => {
    expect(parsePermissions('0'.repeat(63) + '8')).toBe(PermissionFlags.ADMINISTRATOR);
    expect(() => parsePermissions('0'.repeat(64) + '8')).toThrow(TypeError);
  });
});

describe('serializePermissions', () => {
  it('writes decimal strings that parse back to the same set', () => {
    expect(serializePermissions(0n)).toBe('0');
    expect(serializePermissions(PermissionFlags.PIN_MESSAGES)).toBe('2251799813685248');
    expect(parsePermissions(serializePermissions(ALL_PERMISSIONS))).toBe(ALL_PERMISSIONS);
  });

  it('rejects negative sets', () => {
    expect(() => serializePermissions(-1n)).toThrow(TypeError);
  });
});

describe('hasPermission', () => {
  const bits = PermissionFlags.VIEW_CHANNEL | PermissionFlags.SEND_MESSAGES;

  it('needs every bit of the flag', () => {
    expect(hasPermission(bits, PermissionFlags.VIEW_CHANNEL)).toBe(true);
    expect(hasPermission(bits, bits)).toBe(true);
    expect(hasPermission(bits, bits | PermissionFlags.ATTACH_FILES)).toBe(false);
    expect(hasPermission(bits, PermissionFlags.PIN_MESSAGES)).toBe(false);
  });

  it('treats the empty flag as held and ADMINISTRATOR as a plain bit', () => {
    expect(hasPermission(0n, 0n)).toBe(true);
    expect(hasPermission(PermissionFlags.ADMINISTRATOR, PermissionFlags.VIEW_CHANNEL)).toBe(false);
  });
});

describe('permissionNames', () => {
  it('lists set permissions lowest bit first and ignores unknown bits', () => {
    const bits =
      PermissionFlags.BYPASS_SLOWMODE |
      PermissionFlags.CREATE_INSTANT_INVITE |
      PermissionFlags.SEND_MESSAGES |
      (1n << 47n);
    expect(permissionNames(bits)).toEqual([
      'CREATE_INSTANT_INVITE',
      'SEND_MESSAGES',
      'BYPASS_SLOWMODE',
    ]);
    expect(permissionNames(0n)).toEqual([]);
    expect(permissionNames(ALL_PERMISSIONS)).toHaveLength(BITS.length);
  });
});

describe('PERMISSION_ENFORCEMENT_DATES', () => {
  it('enforces the four split permissions from 2026-02-23T00:00:00Z', () => {
    const feb23 = Date.parse('2026-02-23T00:00:00Z');
    expect(PERMISSION_ENFORCEMENT_DATES).toEqual({
      PIN_MESSAGES: feb23,
      BYPASS_SLOWMODE: feb23,
      CREATE_GUILD_EXPRESSIONS: feb23,
      CREATE_EVENTS: feb23,
    });
  });
});
