import { PermissionFlags as P } from '@guildhall/protocol';
import { basePermissions, hasAll } from '../../domain/permissions.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { MemberPatch, MemberRecord, RoleRecord } from '../../storage/index.js';
import { diffChanges, type AuditChange } from '../auditLog/index.js';
import type { GuildAccess } from '../access/index.js';
import { assertAboveMember } from './hierarchy.js';
import type { ModifyMemberInput } from './schemas.js';
import { DAY_MS } from '../../domain/time.js';

/** The longest timeout the platform allows: 28 days. */
export const MAX_TIMEOUT_MS = 28 * DAY_MS;

/** The one member flag others may set: BYPASSES_VERIFICATION (1 << 2). */
const EDITABLE_MEMBER_FLAGS = 1 << 2;

export interface MemberUpdatePlan {
  patch: MemberPatch;
  /** MEMBER_UPDATE changes. */
  changes: AuditChange[];
  add: RoleRecord[];
  remove: RoleRecord[];
}

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

function requireAny(access: GuildAccess, options: bigint[]): void {
  if (!options.some((bits) => hasAll(access.permissions, bits))) {
    throw new ApiError('MISSING_PERMISSIONS');
  }
}

/** Who may change what in a role set: MANAGE_ROLES, and only unmanaged roles below one's own. */
function planRoles(access: GuildAccess, member: MemberRecord, wanted: readonly string[]) {
  access.require(P.MANAGE_ROLES);
  const byId = new Map(access.roles.map((role) => [role.id, role]));
  // @everyone is every member's implicitly; naming it changes nothing.
  const desired = new Set(wanted.filter((id) => id !== access.guild.id));
  for (const id of desired) if (!byId.has(id)) throw new ApiError('UNKNOWN_ROLE');
  const held = new Set(member.roleIds);
  const add = [...desired].filter((id) => !held.has(id)).flatMap((id) => byId.get(id) ?? []);
  const remove = member.roleIds
    .filter((id) => !desired.has(id))
    .flatMap((id) => byId.get(id) ?? []);
  for (const role of [...add, ...remove]) {
    if (role.managed || !access.outranks(role)) throw new ApiError('MISSING_PERMISSIONS');
  }
  return { add, remove };
}

/**
 * Checks a PATCH /guilds/{id}/members/{user_id} against the caller's permissions and rank, and
 * works out the changes, before anything is written.
 */
export function planMemberUpdate(
  access: GuildAccess,
  member: MemberRecord,
  input: ModifyMemberInput,
): MemberUpdatePlan {
  const self = member.userId === access.subject.member.userId;
  const plan: MemberUpdatePlan = { patch: {}, changes: [], add: [], remove: [] };
  const before: Record<string, unknown> = {};
  const after: Record<string, unknown> = {};
  const change = (key: string, oldValue: unknown, newValue: unknown) => {
    before[key] = oldValue;
    after[key] = newValue;
  };
  if (input.nick !== undefined) {
    if (self) requireAny(access, [P.CHANGE_NICKNAME, P.MANAGE_NICKNAMES]);
    else {
      access.require(P.MANAGE_NICKNAMES);
      assertAboveMember(access, member);
    }
    plan.patch.nick = input.nick;
    change('nick', member.nick, input.nick);
  }
  if (input.roles != null) Object.assign(plan, planRoles(access, member, input.roles));
  if (input.mute != null) {
    access.require(P.MUTE_MEMBERS);
    plan.patch.mute = input.mute;
    change('mute', member.mute, input.mute);
  }
  if (input.deaf != null) {
    access.require(P.DEAFEN_MEMBERS);
    plan.patch.deaf = input.deaf;
    change('deaf', member.deaf, input.deaf);
  }
  if (input.channel_id !== undefined) {
    // Moving or disconnecting needs a voice connection, and nobody is connected to voice here.
    access.require(P.MOVE_MEMBERS);
    throw new ApiError('TARGET_USER_NOT_IN_VOICE');
  }
  if (input.communication_disabled_until !== undefined) {
    planTimeout(access, member, input.communication_disabled_until);
    const until = input.communication_disabled_until;
    plan.patch.communicationDisabledUntil = until;
    change('communication_disabled_until', iso(member.communicationDisabledUntil), iso(until));
  }
  if (input.flags != null) {
    requireAny(access, [
      P.MANAGE_GUILD,
      P.MANAGE_ROLES,
      P.MODERATE_MEMBERS | P.KICK_MEMBERS | P.BAN_MEMBERS,
    ]);
    const flags = (member.flags & ~EDITABLE_MEMBER_FLAGS) | (input.flags & EDITABLE_MEMBER_FLAGS);
    plan.patch.flags = flags;
    change('flags', member.flags, flags);
  }
  plan.changes = diffChanges(before, after);
  return plan;
}

/**
 * Timeouts: MODERATE_MEMBERS, at most 28 days ahead, never on the owner, an administrator or
 * anyone at or above the caller.
 */
function planTimeout(access: GuildAccess, member: MemberRecord, until: number | null): void {
  access.require(P.MODERATE_MEMBERS);
  assertAboveMember(access, member);
  if (until === null) return;
  const now = access.subject.nowMs;
  if (until > now + MAX_TIMEOUT_MS) {
    throw invalidField(
      ['communication_disabled_until'],
      'INVALID_COMMUNICATION_DISABLED_TIMESTAMP',
      'Invalid communication disabled timestamp',
    );
  }
  const target = basePermissions({
    ...access.subject,
    member: { userId: member.userId, roleIds: member.roleIds, communicationDisabledUntil: null },
  });
  if (until > now && hasAll(target, P.ADMINISTRATOR)) throw new ApiError('MISSING_PERMISSIONS');
}
