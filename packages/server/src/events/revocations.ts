import { randomBytes } from 'node:crypto';
import type { EventBus, Subscription } from '../bus/index.js';
import type { Clock } from '../domain/clock.js';
import type { Repositories } from '../storage/index.js';
import { onCommit } from './afterCommit.js';

/**
 * What a revocation ends: what every node holds in memory that a change made on one node no
 * longer allows. Every node drops the named credentials from its auth cache and closes (4004)
 * the gateway sessions opened or resumed with them, drops its copy of the named guilds'
 * auto-moderation rules (resources/autoModeration/ruleCache.ts), and drops the named
 * applications' URL mappings from its activity proxy host (activities/mappingCache.ts).
 */
export interface Revocation {
  /** SHA-256 hashes of tokens that no longer authenticate (a reset bot token, a logout…). */
  tokenHashes: readonly string[];
  /** Users every credential of whom ends (an operator ban, a deleted account). */
  userIds: readonly string[];
  /** Guilds whose auto-moderation rules changed (a rule created, modified or deleted). */
  autoModGuildIds: readonly string[];
  /** Applications whose activity URL mappings changed: the proxy host reads them again. */
  activityApplicationIds: readonly string[];
}

/** The bus subject every API and gateway node listens on for revocations. */
export const REVOCATION_SUBJECT = 'auth.revoked';

/** Applies a revocation to what this node holds (its auth cache, its gateway sessions). */
export type RevocationListener = (revocation: Revocation) => void;

export interface Revocations {
  /**
   * Revokes on every node once the transaction of `tx` commits (at once for the storage's own
   * repositories, whose statements commit by themselves): this node applies it before the caller
   * answers, the others as the bus delivers it.
   */
  revoke(tx: Repositories, revocation: Partial<Revocation>): void;
  /** Adds what a revocation must reach on this node. */
  listen(listener: RevocationListener): void;
  /** Starts applying the revocations other nodes publish. */
  start(): Promise<void>;
  close(): void;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Revocations over the event bus: published after the commit, applied by every node. */
export function createRevocations(options: {
  bus: EventBus;
  clock: Clock;
  onError: (err: unknown) => void;
}): Revocations {
  const { bus, clock, onError } = options;
  const node = randomBytes(8).toString('hex');
  const listeners: RevocationListener[] = [];
  let subscription: Subscription | null = null;

  const apply = (revocation: Revocation) => {
    for (const listener of listeners) {
      try {
        listener(revocation);
      } catch (err) {
        onError(err);
      }
    }
  };

  const publish = (revocation: Revocation) => {
    apply(revocation);
    bus
      .publish(REVOCATION_SUBJECT, {
        type: 'REVOCATION',
        topic: REVOCATION_SUBJECT,
        data: { node, ...revocation },
        publishedAt: clock.now(),
      })
      .catch(onError);
  };

  return {
    revoke(tx, revocation) {
      const full: Revocation = {
        tokenHashes: revocation.tokenHashes ?? [],
        userIds: revocation.userIds ?? [],
        autoModGuildIds: revocation.autoModGuildIds ?? [],
        activityApplicationIds: revocation.activityApplicationIds ?? [],
      };
      const ids = [
        full.tokenHashes,
        full.userIds,
        full.autoModGuildIds,
        full.activityApplicationIds,
      ];
      if (ids.every((list) => list.length === 0)) return;
      onCommit(tx, () => {
        publish(full);
      });
    },
    listen(listener) {
      listeners.push(listener);
    },
    async start() {
      subscription = await bus.subscribe(REVOCATION_SUBJECT, (event) => {
        const data = event.data as Record<string, unknown> | null;
        // This node applied its own revocations before publishing them.
        if (data === null || typeof data !== 'object' || data['node'] === node) return;
        apply({
          tokenHashes: strings(data['tokenHashes']),
          userIds: strings(data['userIds']),
          autoModGuildIds: strings(data['autoModGuildIds']),
          activityApplicationIds: strings(data['activityApplicationIds']),
        });
      });
    },
    close() {
      subscription?.unsubscribe();
      subscription = null;
    },
  };
}
