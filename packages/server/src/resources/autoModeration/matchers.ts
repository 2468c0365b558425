/**
 * @module resources/autoModeration/matchers: each rule's keyword list, allow list and patterns,
 * compiled once and kept while the rule stays the same (by the enforcer that made the cache,
 * least recently used dropped first), so a message does not pay to compile them.
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

/** The characters of list entries and patterns the cache keeps, in all. */
export const MAX_CACHED_CHARS = 1_000_000;

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

/** A cache of compiled rules; one per enforcer. */
export function createRuleMatchers(maxCachedChars = MAX_CACHED_CHARS) {
  const cache = new Map<string, { source: string; matcher: RuleMatcher }>();
  let cachedChars = 0;
  return {
    /** The rule's matcher, compiled now unless kept from an earlier check of the same rule. */
    of(rule: AutoModRuleRecord): RuleMatcher {
      const source = JSON.stringify(rule.triggerMetadata);
      const kept = cache.get(rule.id);
      if (kept !== undefined) {
        cache.delete(rule.id);
        if (kept.source === source) {
          cache.set(rule.id, kept);
          return kept.matcher;
        }
        cachedChars -= kept.source.length;
      }
      const matcher = compileRule(rule.triggerMetadata);
      cache.set(rule.id, { source, matcher });
      cachedChars += source.length;
      for (const [id, entry] of cache) {
        if (cachedChars <= maxCachedChars || id === rule.id) break;
        cache.delete(id);
        cachedChars -= entry.source.length;
      }
      return matcher;
    },
  };
}

export type RuleMatchers = ReturnType<typeof createRuleMatchers>;
