/**
 * @module resources/autoModeration/ruleMatch: whether a rule matches a message or a member's
 * names. The keyword, preset and regex matching runs within the check's budget; a rule it could
 * not finish matches as "timed out" (fails closed, see enforce.ts). Counting mentions and
 * repeated content costs next to nothing and is not held to the budget.
 */
import { createHash } from 'node:crypto';
import type { Clock } from '../../domain/clock.js';
import { SECOND_MS } from '../../domain/time.js';
import type { AutoModRuleRecord } from '../../storage/index.js';
import { OutOfBudget, type Budget } from './budget.js';
import { scanText, type ScannedText } from './keywords.js';
import { compileRule, type RuleMatcher } from './matchers.js';
import { firstPresetHit } from './presets.js';
import { firstRegexHit } from './regex.js';
import { AutoModTriggers as T } from './schemas.js';

/** The SPAM trigger: the same content from one member this many times within the window. */
export const SPAM_REPEATS = 3;
export const SPAM_WINDOW_MS = 60 * SECOND_MS;
/** Members whose recent contents the spam check remembers, per process. */
const SPAM_TRACKED_MEMBERS = 10_000;

/** Why a rule matched: the configured keyword and the content it found. */
export interface Match {
  keyword: string | null;
  content: string | null;
  /** The check ran out of budget before it could tell: the rule is taken to match. */
  timedOut?: true;
}

const TIMED_OUT: Match = { keyword: null, content: null, timedOut: true };

/** What the message checks read of a message. */
export interface MatchedMessage {
  guildId: string;
  userId: string;
  content: string;
  /** An edit of a written message: the SPAM trigger does not count it. */
  edit?: boolean;
  /** The content, scanned once for every rule. */
  text: ScannedText;
}

/**
 * A rule with its lists and patterns, compiled when first asked for: compiling (when the rule
 * is not kept compiled) is counted in the check's budget, and may throw OutOfBudget.
 */
export interface PreparedRule {
  rule: AutoModRuleRecord;
  matcher: () => RuleMatcher;
}

/** Unique user and role mentions in the content (`<@id>`, `<@!id>`, `<@&id>`). */
export function uniqueMentions(content: string): number {
  return new Set(content.match(/<@[!&]?\d{1,20}>/g)?.map((m) => m.replace('!', '')) ?? []).size;
}

/** Keywords, then patterns, with the allow list (KEYWORD and MEMBER_PROFILE rules). */
function keywordMatch(matcher: RuleMatcher, text: ScannedText, budget: Budget): Match | null {
  const hit = matcher.keywords.firstHit(text, budget);
  if (hit !== null) return { keyword: hit.keyword, content: hit.matched };
  const regex = firstRegexHit(matcher.patterns, text.content, {
    accept: (matched) => !matcher.allow.coversText(matched),
    budget,
  });
  return regex === null ? null : { keyword: regex.pattern, content: regex.matched };
}

/** The matched rule, or TIMED_OUT when the budget ran out first. */
function withinBudget(run: () => Match | null): Match | null {
  try {
    return run();
  } catch (err) {
    if (err instanceof OutOfBudget) return TIMED_OUT;
    throw err;
  }
}

/**
 * Rules and texts like those the matchers meet, to run before a process's first check: V8 runs
 * the matchers' code (RE2's automata above all) many times slower until it has compiled it, and
 * the first checks would spend their budget on that and fail closed. Measured: the first run of
 * ten patterns over a 2,000-character text took 60 ms of CPU, 3 ms after this warm-up (60 ms once).
 */
const WARM_UP = {
  rules: [
    {
      keyword_filter: ['fox', 'qu*', '*ps', '*az*', 'lazy dog*', '*b.c*'],
      allow_list: ['quick', '*y dogs', 'bbb*'],
      regex_patterns: ['.*x.*y!', 'b*b*c*d', '(b+)+$', '(\\w+\\s)+#', '(b|bb)*z', '(.*b){3}#'],
    },
    { presets: [1, 2, 3], allow_list: ['*b*'] },
  ],
  texts: [`${'b'.repeat(1990)}\n.`, 'the quick brown fox jumps over 13 lazy dogs, b.c '.repeat(40)],
  rounds: 2,
};

export function createRuleMatching(deps: { clock: Clock }) {
  const { clock } = deps;
  /** Recent content hashes per guild member, for the SPAM trigger (oldest member first out). */
  const recent = new Map<string, { hash: string; at: number }[]>();

  /** Counts this content for the member; whether it is the SPAM_REPEATS-th copy in the window. */
  const repeated = (guildId: string, userId: string, content: string): boolean => {
    const key = `${guildId}:${userId}`;
    const now = clock.now();
    const hash = createHash('sha256').update(content.trim().toLowerCase()).digest('hex');
    const seen = (recent.get(key) ?? []).filter((entry) => entry.at > now - SPAM_WINDOW_MS);
    seen.push({ hash, at: now });
    recent.delete(key);
    recent.set(key, seen.slice(-SPAM_REPEATS * 4));
    if (recent.size > SPAM_TRACKED_MEMBERS) {
      const oldest = recent.keys().next().value;
      if (oldest !== undefined) recent.delete(oldest);
    }
    return seen.filter((entry) => entry.hash === hash).length >= SPAM_REPEATS;
  };

  let warm = false;
  const unlimited: Budget = { check: () => undefined };

  return {
    /** Runs the matchers over sample texts once per process, before the first check's budget. */
    warmUp(): void {
      if (warm) return;
      warm = true;
      const matchers = WARM_UP.rules.map(compileRule);
      for (let round = 0; round < WARM_UP.rounds; round += 1) {
        for (const content of WARM_UP.texts) {
          const text = scanText(content);
          for (const matcher of matchers) {
            keywordMatch(matcher, text, unlimited);
            firstPresetHit(matcher, text, unlimited);
          }
        }
      }
    },

    /** Whether a MESSAGE_SEND rule matches the message. */
    message(prepared: PreparedRule, message: MatchedMessage, budget: Budget): Match | null {
      const { rule, matcher } = prepared;
      const { text } = message;
      switch (rule.triggerType) {
        case T.KEYWORD:
          return withinBudget(() => keywordMatch(matcher(), text, budget));
        case T.KEYWORD_PRESET:
          return withinBudget(() => {
            const word = firstPresetHit(matcher(), text, budget);
            return word === null ? null : { keyword: word, content: word };
          });
        case T.MENTION_SPAM: {
          const limit = Number(rule.triggerMetadata['mention_total_limit'] ?? 0);
          return uniqueMentions(message.content) > limit ? { keyword: null, content: null } : null;
        }
        case T.SPAM:
          return message.edit !== true && repeated(message.guildId, message.userId, message.content)
            ? { keyword: null, content: null }
            : null;
        default:
          return null;
      }
    },

    /** Whether a MEMBER_PROFILE rule (`matcher`, compiled when asked for) matches a name. */
    profile(matcher: () => RuleMatcher, names: readonly string[], budget: Budget): Match | null {
      return withinBudget(() => {
        const compiled = matcher();
        for (const name of names) {
          const match = keywordMatch(compiled, scanText(name), budget);
          if (match !== null) return match;
        }
        return null;
      });
    },
  };
}

export type RuleMatching = ReturnType<typeof createRuleMatching>;
