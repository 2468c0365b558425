import type { InviteRecord, Repositories } from '../../storage/index.js';
import { SECOND_MS } from '../../domain/time.js';
import { newCode } from './service.js';

/**
 * An invite the platform makes on someone's behalf (a lobby's linked channel invite), with no
 * permission check of its own: the caller decided it may be made. With `targetUserIds`, only
 * those users may accept it. Written in the caller's transaction; the accept path
 * (POST /invites/{code}) treats it as any other invite.
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
      return invite;
    }
  }
}
