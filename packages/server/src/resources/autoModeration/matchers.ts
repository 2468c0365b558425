/**
 * @module resources/autoModeration/matchers: each rule's keyword list, allow list and patterns,
 * compiled once and kept while the rule stays the same (by the enforcer that made the cache,
 * the least recently checked guild's rules dropped first), so most messages do not pay to
 * compile them; the one that does counts it in its budget (enforce.ts).
 */
import type { AutoModRuleRecord, SettingsJson } from '../../storage/index.js';
import { AllowList, KeywordMatcher } from './keywords.js';
import { compilePattern, type CompiledPattern } from './regex.js';

/** A rule's lists, compiled. */
export interface RuleMatcher {
  keywords: KeywordMatcher;
  patterns: CompiledPattern[];
  allow: AllowList;
  /** The preset lists of a KEYWORD_PRESET rule. */
  presets: number[];
}

/** A string list of trigger metadata (empty when absent). */
export const metadataList = (metadata: SettingsJson, key: string): string[] => {
  const value = metadata[key];
  return Array.isArray(value) ? value.map(String) : [];
};

/**
 * The characters of list entries and patterns the cache keeps, in all: room for the rules of
 * many guilds at the save-time cap (a guild's rules of one event must compile and run within
 * one budget, cost.ts, so one guild can hold only so much).
 */
export const MAX_CACHED_CHARS = 4_000_000;

/** A rule's trigger metadata, compiled (`createRuleMatchers` keeps what it compiles). */
export function compileRule(metadata: SettingsJson): RuleMatcher {
  const allow = new AllowList(metadataList(metadata, 'allow_list'));
  return {
    allow,
    keywords: new KeywordMatcher(metadataList(metadata, 'keyword_filter'), allow),
    // A stored pattern the engine cannot compile (saved under an earlier engine) is skipped.
    patterns: metadataList(metadata, 'regex_patterns').flatMap((pattern) => {
      try {
        return [{ pattern, re: compilePattern(pattern) }];
      } catch {
        return [];
      }
    }),
    presets: Array.isArray(metadata['presets']) ? metadata['presets'].map(Number) : [],
  };
}

/** A guild's compiled rules, by rule id, and their characters. */
interface GuildEntry {
  rules: Map<string, { source: string; matcher: RuleMatcher }>;
  chars: number;
}

/**
 * A cache of compiled rules; one per enforcer. It keeps guilds whole, least recently checked
 * dropped first and never the guild being checked: other guilds cannot evict a guild's rules
 * midway through its check, and compiling again after an eviction is counted in the budget of
 * the check that does it (enforce.ts), which the save-time model lets a guild's rules fit.
 */
export function createRuleMatchers(maxCachedChars = MAX_CACHED_CHARS) {
  const guilds = new Map<string, GuildEntry>();
  let cachedChars = 0;
  /** Drops the least recently checked guilds (never `keep`) until the cache fits. */
  const evict = (keep: string) => {
    for (const [guildId, entry] of guilds) {
      if (cachedChars <= maxCachedChars) break;
      if (guildId === keep) continue;
      guilds.delete(guildId);
      cachedChars -= entry.chars;
    }
  };
  return {
    /**
     * The rule's matcher: kept from an earlier check of the same rule, or compiled now (after
     * `beforeCompile`, which the check uses to spend its budget: it may throw OutOfBudget).
     */
    of(rule: AutoModRuleRecord, beforeCompile: () => void = () => undefined): RuleMatcher {
      const source = JSON.stringify(rule.triggerMetadata);
      const entry: GuildEntry = guilds.get(rule.guildId) ?? { rules: new Map(), chars: 0 };
      guilds.delete(rule.guildId);
      guilds.set(rule.guildId, entry);
      const kept = entry.rules.get(rule.id);
      if (kept?.source === source) return kept.matcher;
      beforeCompile();
      const matcher = compileRule(rule.triggerMetadata);
      if (kept !== undefined) {
        entry.chars -= kept.source.length;
        cachedChars -= kept.source.length;
      }
      entry.rules.set(rule.id, { source, matcher });
      entry.chars += source.length;
      cachedChars += source.length;
      evict(rule.guildId);
      return matcher;
    },

    /** Forgets the guild's compiled rules that are not among `ruleIds` (deleted rules). */
    retain(guildId: string, ruleIds: readonly string[]): void {
      const entry = guilds.get(guildId);
      if (entry === undefined) return;
      for (const [id, kept] of entry.rules) {
        if (ruleIds.includes(id)) continue;
        entry.rules.delete(id);
        entry.chars -= kept.source.length;
        cachedChars -= kept.source.length;
      }
    },
  };
}

export type RuleMatchers = ReturnType<typeof createRuleMatchers>;
