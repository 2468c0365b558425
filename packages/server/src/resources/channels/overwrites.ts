import { AuditLogActions, PermissionFlags as P } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { OverwriteRecord, Repositories } from '../../storage/index.js';
import { recordAudit, diffChanges } from '../auditLog/index.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ServiceDeps } from '../deps.js';
import { channelDispatches } from './dispatch.js';
import {
  assertGrantable,
  assertOverwriteTargets,
  loadChannelAccess,
  type ChannelAccess,
} from './access.js';
import { serializeChannel } from './serialize.js';
import type { PutOverwriteInput } from './schemas.js';

/** Who is changing overwrites, for their audit entries. */
export interface OverwriteAuditContext {
  ids: ServiceDeps['ids'];
  guildId: string;
  userId: string;
  reason: string | null;
  /** Role names by id, for the entries' `role_name` option. */
  roleNames: ReadonlyMap<string, string>;
}

const bitsView = (o: OverwriteRecord | undefined) =>
  o === undefined ? {} : { allow: o.allow.toString(), deny: o.deny.toString() };

/** Whether two overwrite lists of one channel grant or deny anything differently. */
export function overwritesDiffer(
  current: readonly OverwriteRecord[],
  next: readonly OverwriteRecord[],
): boolean {
  if (current.length !== next.length) return true;
  const before = new Map(current.map((o) => [o.targetId, o]));
  return next.some((o) => {
    const old = before.get(o.targetId);
    return old?.type !== o.type || old.allow !== o.allow || old.deny !== o.deny;
  });
}

/**
 * Makes a channel's overwrites exactly `next`, writing one CHANNEL_OVERWRITE_CREATE, _UPDATE or
 * _DELETE entry per overwrite that changes (options: id, type and, for roles, role_name).
 */
export async function syncOverwrites(
  tx: Repositories,
  context: OverwriteAuditContext,
  change: {
    channelId: string;
    current: readonly OverwriteRecord[];
    next: readonly OverwriteRecord[];
  },
): Promise<void> {
  const { channelId, current, next } = change;
  const before = new Map(current.map((o) => [o.targetId, o]));
  const after = new Map(next.map((o) => [o.targetId, o]));
  const audit = async (actionType: number, target: OverwriteRecord, old?: OverwriteRecord) => {
    const roleName = target.type === 0 ? context.roleNames.get(target.targetId) : undefined;
    const neu = actionType === AuditLogActions.CHANNEL_OVERWRITE_DELETE ? undefined : target;
    await recordAudit(tx, context.ids, {
      guildId: context.guildId,
      userId: context.userId,
      targetId: channelId,
      actionType,
      changes: diffChanges(bitsView(old), bitsView(neu)),
      options: {
        id: target.targetId,
        type: String(target.type),
        ...(roleName === undefined ? {} : { role_name: roleName }),
      },
      reason: context.reason,
    });
  };
  for (const [targetId, old] of before) {
    if (after.has(targetId)) continue;
    await tx.overwrites.delete(channelId, targetId);
    await audit(AuditLogActions.CHANNEL_OVERWRITE_DELETE, old, old);
  }
  for (const [targetId, overwrite] of after) {
    const old = before.get(targetId);
    const record = { ...overwrite, channelId };
    if (old?.type === record.type && old.allow === record.allow && old.deny === record.deny) {
      continue;
    }
    await tx.overwrites.put(record);
    await audit(
      old === undefined
        ? AuditLogActions.CHANNEL_OVERWRITE_CREATE
        : AuditLogActions.CHANNEL_OVERWRITE_UPDATE,
      record,
      old,
    );
  }
}

/** PUT and DELETE /channels/{id}/permissions/{overwrite_id}: MANAGE_ROLES in the channel. */
export function createOverwriteService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;

  const load = async (tx: Repositories, principal: Principal, channelId: string) => {
    const access = await loadChannelAccess(tx, {
      channelId,
      userId: principal.user.id,
      nowMs: clock.now(),
    });
    access.require(P.MANAGE_ROLES);
    return access;
  };
  /** CHANNEL_UPDATE with the overwrites after the change, when they change. */
  const announce = (tx: Repositories, access: ChannelAccess, next: readonly OverwriteRecord[]) => {
    if (!overwritesDiffer(access.overwrites, next)) return;
    afterCommit(
      tx,
      channelDispatches.channel('CHANNEL_UPDATE', serializeChannel(access.channel, next)),
    );
  };
  const contextOf = (
    principal: Principal,
    access: Awaited<ReturnType<typeof load>>,
    reason: string | null,
  ): OverwriteAuditContext => ({
    ids,
    guildId: access.guild.guild.id,
    userId: principal.user.id,
    reason,
    roleNames: new Map(access.guild.roles.map((role) => [role.id, role.name])),
  });

  return {
    async put(
      principal: Principal,
      target: { channelId: string; overwriteId: string },
      input: PutOverwriteInput & { reason: string | null },
    ): Promise<void> {
      await storage.transaction(async (tx) => {
        const access = await load(tx, principal, target.channelId);
        const overwrite: OverwriteRecord = {
          channelId: access.channel.id,
          targetId: target.overwriteId,
          type: input.type,
          allow: input.allow ?? 0n,
          deny: input.deny ?? 0n,
        };
        await assertOverwriteTargets(tx, access.guild, [
          { id: target.overwriteId, type: input.type },
        ]);
        // Only bits held in this channel may be granted or denied (MANAGE_ROLES: admins only).
        assertGrantable(access.guild, access.permissions, [overwrite]);
        const next = [
          ...access.overwrites.filter((o) => o.targetId !== overwrite.targetId),
          overwrite,
        ];
        announce(tx, access, next);
        await syncOverwrites(tx, contextOf(principal, access, input.reason), {
          channelId: access.channel.id,
          current: access.overwrites,
          next,
        });
      });
    },

    async delete(
      principal: Principal,
      target: { channelId: string; overwriteId: string },
      reason: string | null,
    ): Promise<void> {
      await storage.transaction(async (tx) => {
        const access = await load(tx, principal, target.channelId);
        if (!access.overwrites.some((o) => o.targetId === target.overwriteId)) {
          throw new ApiError('UNKNOWN_OVERWRITE');
        }
        const next = access.overwrites.filter((o) => o.targetId !== target.overwriteId);
        announce(tx, access, next);
        await syncOverwrites(tx, contextOf(principal, access, reason), {
          channelId: access.channel.id,
          current: access.overwrites,
          next,
        });
      });
    },
  };
}

export type OverwriteService = ReturnType<typeof createOverwriteService>;
