/**
 * Provisional accounts (oauth/provisional/) as the composition root makes them: their revocations
 * (bans, unlinks) wait for their transactions to commit, OpenID tokens are verified with the
 * configured leniency for local issuers, and a deleted provisional account takes its messages
 * and DMs with it.
 */
import type { Dispatcher } from './events/dispatcher.js';
import { dispatchingStorage } from './events/afterCommit.js';
import { expandScopes } from './oauth/index.js';
import { createOidcVerifier } from './oauth/provisional/oidc.js';
import { createProvisionalService } from './oauth/provisional/service.js';
import type { Storage } from './storage/index.js';

type ProvisionalDeps = Parameters<typeof createProvisionalService>[0];

export function createAppProvisional(
  deps: Omit<
    ProvisionalDeps,
    'storage' | 'oidc' | 'expandScopes' | 'onProvisionalAccountDeleted'
  > & {
    storage: Storage;
    events: Dispatcher;
    /** `--oidc-allow-insecure-local`: http issuers on loopback (tests, local providers). */
    oidcAllowInsecureLocal: boolean;
  },
) {
  const { storage, events, oidcAllowInsecureLocal, ...rest } = deps;
  return createProvisionalService({
    ...rest,
    storage: dispatchingStorage(storage, events),
    oidc: createOidcVerifier({ clock: deps.clock, allowInsecureLocal: oidcAllowInsecureLocal }),
    expandScopes,
    // Messages sent while provisional are not retrievable after a merge (spec, account linking).
    onProvisionalAccountDeleted: async (tx, userId) => {
      await tx.messages.deleteAllByUser(userId);
      // Its DMs go with it (their other side keeps nothing); it leaves its group DMs.
      await tx.privateChannels.deleteDmsOf(userId);
    },
  });
}
