/**
 * @module resources/autoModeration/ruleCache: each guild's auto-moderation rules, held in memory.
 * Every guild message create checks them (enforce.ts), and they change rarely: a create reads
 * them from storage only the first time, and after they changed.
 *
 * The rule service announces a change with the revocations (events/revocations.ts,
 * `autoModGuildIds`), once its transaction commits: this node forgets the guild's rules before it
 * answers, every other node as the bus delivers the revocation. A read that a change overtook is
 * answered but not kept, so a rule changed here is never enforced from an older copy.
 */
import type { AutoModRuleRecord, Storage } from '../../storage/index.js';

/** How many guilds' rules are held unless the options say otherwise. */
const DEFAULT_MAX_GUILDS = 10_000;

export interface AutoModRuleCache {
  /** The guild's rules (every event type, enabled or not), from memory when held. */
  listByGuild(guildId: string): Promise<readonly AutoModRuleRecord[]>;
  /** Forgets a guild's rules (they changed). */
  forget(guildId: string): void;
  /** Forgets every guild's rules (a server returned to a snapshot, control/reset.ts). */
  forgetAll(): void;
}

export function createAutoModRuleCache(options: {
  storage: Pick<Storage, 'autoModRules'>;
  maxGuilds?: number;
}): AutoModRuleCache {
  const { storage, maxGuilds = DEFAULT_MAX_GUILDS } = options;
  const held = new Map<string, readonly AutoModRuleRecord[]>();
  // Bumped by every forget: a storage read that a forget overtook is not kept.
  let generation = 0;

  return {
    async listByGuild(guildId) {
      const found = held.get(guildId);
      if (found !== undefined) return found;
      const seen = generation;
      const rules = await storage.autoModRules.listByGuild(guildId);
      if (generation === seen) {
        if (held.size >= maxGuilds) {
          // Maps iterate in insertion order: drop the oldest guild.
          const oldest = held.keys().next();
          if (oldest.done !== true) held.delete(oldest.value);
        }
        held.set(guildId, rules);
      }
      return rules;
    },
    forget(guildId) {
      generation++;
      held.delete(guildId);
    },
    forgetAll() {
      generation++;
      held.clear();
    },
  };
}
