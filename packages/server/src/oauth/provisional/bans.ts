import { SECOND_MS } from '../../domain/time.js';
import { ApiError } from '../../errors/index.js';
import type { ProvisionalDeps } from './deps.js';
import type { createProvisionalIdentities } from './identities.js';

/**
 * An operator's bans of accounts (docs/platform-notes.md#provisional-accounts): a banned account's
 * application identities move to restricted provisional accounts, which may not merge while it
 * lasts.
 */
export function createProvisionalBans(
  deps: Pick<ProvisionalDeps, 'storage' | 'clock' | 'oauth' | 'revocations'>,
  identities: Pick<ReturnType<typeof createProvisionalIdentities>, 'detachIdentity'>,
) {
  const { storage, clock, oauth, revocations } = deps;
  const { detachIdentity } = identities;

  return {
    /**
     * An operator's ban: every token of the account is deleted, and each application identity it
     * holds moves to a new cross-platform-restricted provisional account (APPLICATION_DEAUTHORIZED
     * for each). `durationSeconds` null is permanent.
     */
    async ban(userId: string, input: { reason: string | null; durationSeconds: number | null }) {
      const now = clock.now();
      const result = await storage.transaction(async (tx) => {
        const user = await tx.users.findById(userId);
        if (user === null || user.bot) throw new ApiError('UNKNOWN_USER');
        const ban = {
          userId,
          reason: input.reason,
          expiresAt:
            input.durationSeconds === null ? null : now + input.durationSeconds * SECOND_MS,
          createdAt: now,
        };
        await tx.provisional.putBan(ban);
        const moved: { applicationId: string; provisionalUserId: string }[] = [];
        for (const identity of await tx.provisional.listIdentitiesOfUser(userId)) {
          if (identity.provisional) continue;
          const provisional = await detachIdentity(tx, identity, userId);
          moved.push({ applicationId: identity.applicationId, provisionalUserId: provisional.id });
        }
        // Every other app's authorization too (refresh tokens included), then the sessions.
        await oauth.revokeAllForUser({ tx, userId });
        await tx.tokens.deleteFor({ userId, kind: 'session' });
        await tx.tokens.deleteFor({ userId, kind: 'bearer' });
        // Once committed, the account's gateway sessions close (4004) on every node.
        revocations.revoke(tx, { userIds: [userId] });
        return { ban, moved };
      });
      return result;
    },

    /** Lifts a ban; restricted provisional accounts made by it may merge again. */
    async unban(userId: string): Promise<boolean> {
      return storage.transaction((tx) => tx.provisional.deleteBan(userId));
    },
  };
}
