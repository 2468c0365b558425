import { afterCommit } from '../../events/afterCommit.js';
import type { InviteRecord, Repositories } from '../../storage/index.js';
import { SECOND_MS } from '../../domain/time.js';
import { serializeUser } from '../users/index.js';
import { newCode } from './checks.js';

/** INVITE_CREATE of an issued invite, as the invite service announces one it creates. */
async function announce(tx: Repositories, invite: InviteRecord) {
  const inviter = invite.inviterId === null ? null : await tx.users.findById(invite.inviterId);
  afterCommit(tx, {
    type: 'INVITE_CREATE',
    guildId: invite.guildId,
    channelId: invite.channelId,
    data: {
      channel_id: invite.channelId,
      guild_id: invite.guildId,
      code: invite.code,
      created_at: new Date(invite.createdAt).toISOString(),
      expires_at: invite.expiresAt === null ? null : new Date(invite.expiresAt).toISOString(),
      ...(inviter === null ? {} : { inviter: serializeUser(inviter) }),
      max_age: invite.maxAge,
      max_uses: invite.maxUses,
      temporary: invite.temporary,
      uses: invite.uses,
    },
  });
}

/**
 * An invite the platform makes on someone's behalf (a lobby's linked channel invite), with no
 * permission check of its own: the caller decided it may be made. With `targetUserIds`, only
 * those users may accept it. Written in the caller's transaction; the accept path
 * (POST /invites/{code}) treats it as any other invite. INVITE_CREATE goes out after the commit.
 */
export async function issueInvite(
  tx: Repositories,
  input: {
    guildId: string;
    channelId: string;
    inviterId: string | null;
    maxAgeSeconds: number;
    maxUses: number;
    targetUserIds: readonly string[];
    now: number;
  },
): Promise<InviteRecord> {
  for (;;) {
    const invite: InviteRecord = {
      code: newCode(),
      guildId: input.guildId,
      channelId: input.channelId,
      inviterId: input.inviterId,
      maxAge: input.maxAgeSeconds,
      maxUses: input.maxUses,
      uses: 0,
      temporary: false,
      targetType: null,
      targetUserId: null,
      targetApplicationId: null,
      roleIds: [],
      targeted: input.targetUserIds.length > 0,
      createdAt: input.now,
      expiresAt: input.maxAgeSeconds === 0 ? null : input.now + input.maxAgeSeconds * SECOND_MS,
    };
    if (await tx.invites.create(invite)) {
      if (input.targetUserIds.length > 0) {
        await tx.invites.addTargetUsers(invite.code, input.targetUserIds);
      }
      await announce(tx, invite);
      return invite;
    }
  }
}
