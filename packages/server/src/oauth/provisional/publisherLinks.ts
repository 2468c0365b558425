import { hashSecret } from '../../domain/credentials.js';
import { unixSeconds } from '../../domain/time.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { ApplicationRecord, Repositories } from '../../storage/index.js';
import type { ProvisionalDeps } from './deps.js';

/**
 * Publisher links: an operator approves a parent application for a child one, and the parent's
 * access token then gets a child token (POST /partner-sdk/child-token).
 */
export function createPublisherLinks(
  deps: Pick<ProvisionalDeps, 'storage' | 'clock' | 'oauth'>,
  checks: {
    authenticateClient: (
      clientId: string,
      clientSecret: string | undefined,
    ) => Promise<ApplicationRecord>;
    loadApplication: (repos: Repositories, applicationId: string) => Promise<ApplicationRecord>;
  },
) {
  const { storage, clock, oauth } = deps;
  const { authenticateClient, loadApplication } = checks;

  return {
    /** Operator approval of a publisher link (parent → child). */
    async linkChild(parentId: string, childId: string) {
      if (parentId === childId) {
        throw invalidField(
          ['child_id'],
          'BASE_TYPE_BAD_VALUE',
          'A child must differ from its parent',
        );
      }
      return storage.transaction(async (tx) => {
        await loadApplication(tx, parentId);
        await loadApplication(tx, childId);
        const link = { parentId, childId, approvedAt: clock.now() };
        await tx.provisional.putLink(link);
        return link;
      });
    },

    async unlinkChild(parentId: string, childId: string): Promise<boolean> {
      return storage.transaction((tx) => tx.provisional.deleteLink(parentId, childId));
    },

    /**
     * POST /partner-sdk/child-token: a parent application's access token for a child one of an
     * approved link; no refresh token, and it expires when the parent token does.
     */
    async childToken(input: {
      parentAccessToken: string;
      childApplicationId: string;
      parentClientSecret: string | undefined;
    }) {
      const now = clock.now();
      const parent = await storage.tokens.findByHash(hashSecret(input.parentAccessToken));
      if (
        parent?.kind !== 'bearer' ||
        parent.applicationId === null ||
        parent.expiresAt === null ||
        parent.expiresAt <= now
      ) {
        throw new ApiError('INVALID_OAUTH2_ACCESS_TOKEN');
      }
      await authenticateClient(parent.applicationId, input.parentClientSecret);
      const link = /^\d{1,20}$/.test(input.childApplicationId)
        ? await storage.provisional.findLink(parent.applicationId, input.childApplicationId)
        : null;
      if (link === null) throw new ApiError('UNKNOWN_APPLICATION');
      const expiresAt = parent.expiresAt;
      const body = await storage.transaction(async (tx) => {
        const issued = await oauth.issueTokens({
          tx,
          userId: parent.userId,
          applicationId: link.childId,
          scopes: parent.scopes,
          refresh: false,
        });
        await tx.provisional.limitTokenExpiry(hashSecret(issued.access_token), expiresAt);
        return issued;
      });
      return {
        access_token: body.access_token,
        token_type: body.token_type,
        expires_in: Math.max(0, unixSeconds(expiresAt - now)),
        scope: body.scope,
      };
    },
  };
}
