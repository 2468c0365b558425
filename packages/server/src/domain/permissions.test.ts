import { ALL_PERMISSIONS, ChannelTypes, PermissionFlags as P } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import {
  basePermissions,
  channelPermissions,
  hasAll,
  outranksRole,
  requiredPermissions,
  type PermissionOverwrite,
  type PermissionSubject,
} from './permissions.js';

const GUILD = '100';
const NOW = Date.UTC(2026, 10, 22);
const roles = new Map([
  [
    GUILD,
    { id: GUILD, permissions: P.VIEW_CHANNEL | P.SEND_MESSAGES | P.EMBED_LINKS, position: 0 },
  ],
  ['mod', { id: 'mod', permissions: P.KICK_MEMBERS | P.MANAGE_MESSAGES, position: 2 }],
  ['admin', { id: 'admin', permissions: P.ADMINISTRATOR, position: 3 }],
  ['muted', { id: 'muted', permissions: 0n, position: 1 }],
]);

function subject(
  roleIds: string[],
  extra: Partial<PermissionSubject['member']> = {},
): PermissionSubject {
  return {
    guildId: GUILD,
    ownerId: 'owner',
    roles,
    member: { userId: 'u1', roleIds, communicationDisabledUntil: null, ...extra },
    nowMs: NOW,
  };
}

const text = (overwrites: PermissionOverwrite[]) => ({ type: ChannelTypes.GUILD_TEXT, overwrites });
const voice = (overwrites: PermissionOverwrite[]) => ({
  type: ChannelTypes.GUILD_VOICE,
  overwrites,
});
const role = (id: string, allow: bigint, deny: bigint): PermissionOverwrite => ({
  id,
  type: 0,
  allow,
  deny,
});
const member = (id: string, allow: bigint, deny: bigint): PermissionOverwrite => ({
  id,
  type: 1,
  allow,
  deny,
});

/** Each rule of the computation, with a case where it allows and one where it denies. */
const MATRIX: {
  rule: string;
  allowed: () => boolean;
  denied: () => boolean;
}[] = [
  {
    rule: 'the owner holds every permission, even without roles',
    allowed: () =>
      basePermissions({
        ...subject([]),
        member: { userId: 'owner', roleIds: [], communicationDisabledUntil: null },
      }) === ALL_PERMISSIONS,
    denied: () => hasAll(basePermissions(subject([])), P.MANAGE_GUILD),
  },
  {
    rule: 'ADMINISTRATOR grants everything, overwrites notwithstanding',
    allowed: () =>
      channelPermissions(subject(['admin']), text([role(GUILD, 0n, P.VIEW_CHANNEL)])) ===
      ALL_PERMISSIONS,
    denied: () => hasAll(basePermissions(subject(['mod'])), P.ADMINISTRATOR),
  },
  {
    rule: '@everyone gives its permissions to every member',
    allowed: () => hasAll(basePermissions(subject([])), P.SEND_MESSAGES),
    denied: () => hasAll(basePermissions(subject([])), P.KICK_MEMBERS),
  },
  {
    rule: "a member's roles add their permissions",
    allowed: () => hasAll(basePermissions(subject(['mod'])), P.KICK_MEMBERS),
    denied: () => hasAll(basePermissions(subject(['muted'])), P.KICK_MEMBERS),
  },
  {
    rule: 'the @everyone overwrite denies and allows first',
    allowed: () =>
      hasAll(
        channelPermissions(subject([]), text([role(GUILD, P.ATTACH_FILES, 0n)])),
        P.ATTACH_FILES,
      ),
    denied: () =>
      hasAll(
        channelPermissions(subject([]), text([role(GUILD, 0n, P.EMBED_LINKS)])),
        P.EMBED_LINKS,
      ),
  },
  {
    rule: 'role overwrites apply together, an allow beating a deny of another role',
    allowed: () =>
      hasAll(
        channelPermissions(
          subject(['mod', 'muted']),
          text([role('muted', 0n, P.SEND_MESSAGES), role('mod', P.SEND_MESSAGES, 0n)]),
        ),
        P.SEND_MESSAGES,
      ),
    denied: () =>
      hasAll(
        channelPermissions(subject(['muted']), text([role('muted', 0n, P.SEND_MESSAGES)])),
        P.SEND_MESSAGES,
      ),
  },
  {
    rule: "the member's own overwrite comes last",
    allowed: () =>
      hasAll(
        channelPermissions(
          subject(['muted']),
          text([role('muted', 0n, P.SEND_MESSAGES), member('u1', P.SEND_MESSAGES, 0n)]),
        ),
        P.SEND_MESSAGES,
      ),
    denied: () =>
      hasAll(
        channelPermissions(
          subject(['mod']),
          text([role('mod', P.SEND_MESSAGES, 0n), member('u1', 0n, P.SEND_MESSAGES)]),
        ),
        P.SEND_MESSAGES,
      ),
  },
  {
    rule: 'overwrites for other roles and members do not apply',
    allowed: () =>
      hasAll(
        channelPermissions(
          subject([]),
          text([role('mod', 0n, P.SEND_MESSAGES), member('u2', 0n, P.SEND_MESSAGES)]),
        ),
        P.SEND_MESSAGES,
      ),
    denied: () =>
      hasAll(
        channelPermissions(subject([]), text([member('u2', P.MANAGE_MESSAGES, 0n)])),
        P.MANAGE_MESSAGES,
      ),
  },
  {
    rule: 'without VIEW_CHANNEL nothing else in the channel is allowed',
    allowed: () => channelPermissions(subject([]), text([])) !== 0n,
    denied: () =>
      channelPermissions(subject(['mod']), text([role(GUILD, 0n, P.VIEW_CHANNEL)])) !== 0n,
  },
  {
    rule: 'without SEND_MESSAGES, embeds, files, TTS and @everyone mentions go too',
    allowed: () => hasAll(channelPermissions(subject([]), text([])), P.EMBED_LINKS),
    denied: () =>
      hasAll(
        channelPermissions(subject([]), text([role(GUILD, 0n, P.SEND_MESSAGES)])),
        P.EMBED_LINKS,
      ),
  },
  {
    rule: 'in voice channels, without CONNECT no voice permission remains',
    allowed: () =>
      hasAll(
        channelPermissions(subject([]), voice([role(GUILD, P.CONNECT | P.SPEAK, 0n)])),
        P.SPEAK,
      ),
    denied: () =>
      hasAll(channelPermissions(subject([]), voice([role(GUILD, P.SPEAK, P.CONNECT)])), P.SPEAK),
  },
  {
    rule: 'a timed-out member keeps only VIEW_CHANNEL and READ_MESSAGE_HISTORY',
    allowed: () =>
      hasAll(
        channelPermissions(subject(['mod'], { communicationDisabledUntil: NOW - 1 }), text([])),
        P.SEND_MESSAGES | P.KICK_MEMBERS,
      ),
    denied: () => {
      const bits = channelPermissions(
        subject(['mod'], { communicationDisabledUntil: NOW + 60_000 }),
        text([role('mod', P.SEND_MESSAGES, 0n)]),
      );
      return (
        hasAll(bits, P.SEND_MESSAGES) ||
        hasAll(bits, P.KICK_MEMBERS) ||
        !hasAll(bits, P.VIEW_CHANNEL)
      );
    },
  },
  {
    rule: 'only a role below your highest may be edited or assigned',
    allowed: () => outranksRole(subject(['mod']), { id: 'muted', permissions: 0n, position: 1 }),
    denied: () => outranksRole(subject(['mod']), { id: 'mod', permissions: 0n, position: 2 }),
  },
  {
    rule: 'pinning needs PIN_MESSAGES from 2026-02-23, MANAGE_MESSAGES before',
    allowed: () =>
      requiredPermissions.pinMessages(Date.UTC(2026, 1, 22, 23, 59)) === P.MANAGE_MESSAGES,
    denied: () => requiredPermissions.pinMessages(Date.UTC(2026, 1, 23)) === P.MANAGE_MESSAGES,
  },
  {
    rule: 'creating emoji and stickers needs CREATE_GUILD_EXPRESSIONS from 2026-02-23',
    allowed: () =>
      requiredPermissions.createExpressions(Date.UTC(2026, 1, 23)) === P.CREATE_GUILD_EXPRESSIONS,
    denied: () =>
      requiredPermissions.createExpressions(Date.UTC(2026, 1, 22)) === P.CREATE_GUILD_EXPRESSIONS,
  },
  {
    rule: 'creating scheduled events needs CREATE_EVENTS from 2026-02-23',
    allowed: () => requiredPermissions.createEvents(Date.UTC(2026, 1, 23)) === P.CREATE_EVENTS,
    denied: () => requiredPermissions.createEvents(Date.UTC(2026, 1, 22)) === P.CREATE_EVENTS,
  },
  {
    rule: 'slowmode is bypassed by BYPASS_SLOWMODE from 2026-02-23, MANAGE_MESSAGES or MANAGE_CHANNELS before',
    allowed: () =>
      requiredPermissions.bypassSlowmode(Date.UTC(2026, 1, 23)).includes(P.BYPASS_SLOWMODE),
    denied: () =>
      requiredPermissions.bypassSlowmode(Date.UTC(2026, 1, 22)).includes(P.BYPASS_SLOWMODE),
  },
];

describe('permission computation', () => {
  it.each(MATRIX)('$rule', ({ allowed, denied }) => {
    expect(allowed()).toBe(true);
    expect(denied()).toBe(false);
  });
});
