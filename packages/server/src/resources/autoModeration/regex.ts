/**
 * @module resources/autoModeration/regex: the rules' regular expressions, run by RE2 (`re2js`, its
 * JavaScript port): an automaton, never backtracking, so a search takes time linear in the text
 * (times the pattern's program size) whatever the pattern. The platform's patterns are Rust's
 * regex syntax, which RE2's is close to: neither has lookaround or backreferences, both take
 * `(?i)`, `\p{L}`, `[[:alpha:]]`, `\x{…}`; Rust's `\u…` escapes are read as `\x{…}`.
 */
import { RE2JS, RE2JSException } from 're2js';
import type { Budget } from './budget.js';

/** Rust's `\u0041`, `\u{41}` and `\U00000041` as RE2's `\x{…}`; other escapes as they are. */
function rustEscapes(pattern: string): string {
  return pattern.replace(
    /\\(?:u\{([0-9a-fA-F]{1,6})\}|u([0-9a-fA-F]{4})|U\{([0-9a-fA-F]{1,8})\}|U([0-9a-fA-F]{8})|([\s\S]))/g,
    (escape, ...hex: (string | undefined)[]) => {
      const digits = hex.slice(0, 4).find((h) => h !== undefined);
      return digits === undefined ? escape : `\\x{${digits}}`;
    },
  );
}

/** Compiles a pattern, case-insensitive as the platform's are. @throws RE2JSException */
export function compilePattern(pattern: string): RE2JS {
  return RE2JS.compile(rustEscapes(pattern), RE2JS.CASE_INSENSITIVE);
}

/** Why a pattern is refused, or null when it is accepted. */
export function regexProblem(pattern: string): string | null {
  if (/\(\?<?[=!]/.test(pattern)) return 'Lookaround is not supported.';
  if (/\\[1-9]|\\k</.test(pattern)) return 'Backreferences are not supported.';
  try {
    compilePattern(pattern);
  } catch (err) {
    if (!(err instanceof RE2JSException)) throw err;
    const description = (
      err as RE2JSException & { getDescription?: () => string }
    ).getDescription?.();
    return description === undefined ? 'Invalid regex.' : `Invalid regex: ${description}.`;
  }
  return null;
}

/** A pattern as configured, compiled. */
export interface CompiledPattern {
  pattern: string;
  re: RE2JS;
}

/** A pattern's match in the content: the pattern and the matched text. */
export interface RegexHit {
  pattern: string;
  matched: string;
}

/**
 * The first match, pattern by pattern, that `accept` takes (a match on the allow list is
 * skipped, and the search goes on after it), or null.
 * @throws OutOfBudget when the budget is spent before the patterns are.
 */
export function firstRegexHit(
  patterns: readonly CompiledPattern[],
  content: string,
  options: {
    /** Whether a match counts (one on the allow list does not). */
    accept: (matched: string) => boolean;
    budget: Budget;
  },
): RegexHit | null {
  for (const { pattern, re } of patterns) {
    options.budget.check();
    const matcher = re.matcher(content);
    while (matcher.find()) {
      const matched = matcher.group() ?? '';
      if (matched !== '' && options.accept(matched)) return { pattern, matched };
      // Each search is linear, but one per skipped match: the budget bounds their number.
      options.budget.check();
    }
  }
  return null;
}
