/**
 * @module control/tokenFaults: a token made to expire, or revoked, now. Both go through the
 * platform's revocation (events/revocations.ts), so every node's cache forgets the token and the
 * gateway sessions opened with it end (close 4004), as after a logout or a token reset.
 */
import type { Clock } from '../domain/clock.js';
import { hashSecret } from '../domain/credentials.js';
import type { Revocations } from '../events/revocations.js';
import type { Storage } from '../storage/index.js';
import { ControlInputError } from './duration.js';
import type { TokenFaultResult } from './types.js';

/** The token as sent in Authorization (`Bot …`, `Bearer …`) or bare. */
function bareToken(token: string): string {
  return token.trim().replace(/^(?:Bot|Bearer)\s+/i, '');
}

export function createTokenFaults(deps: {
  storage: Storage;
  clock: Clock;
  revocations: Pick<Revocations, 'revoke'>;
}) {
  const { storage, clock, revocations } = deps;
  const unknown = () =>
    new ControlInputError(
      'no live token is this one: pass a bot, Bearer, session or interaction token the platform issued',
    );

  /** Ends a credential now: deleted (revoked) or its expiry set to now. */
  const end = async (token: string, how: 'expire' | 'revoke'): Promise<TokenFaultResult> => {
    const hash = hashSecret(bareToken(token));
    const now = clock.now();
    const record = await storage.tokens.findByHash(hash);
    if (record === null || (record.expiresAt !== null && record.expiresAt <= now)) {
      // An interaction token lives in its interaction, for its 15 minutes.
      if (await storage.interactions.expireToken(hash, now)) {
        return { kind: 'interaction', outcome: 'expired' };
      }
      throw unknown();
    }
    // A bot token never expires: "expired" is a revocation, as a token reset does.
    const outcome = how === 'expire' && record.kind !== 'bot' ? 'expired' : 'revoked';
    await storage.transaction(async (tx) => {
      if (outcome === 'expired') await tx.tokens.setExpiry(hash, now);
      else await tx.tokens.delete(hash);
      revocations.revoke(tx, { tokenHashes: [hash] });
    });
    return { kind: record.kind, outcome };
  };

  return {
    expireToken: (token: string) => end(token, 'expire'),
    revokeToken: (token: string) => end(token, 'revoke'),
  };
}
