/**
 * @module resources/autoModeration/regex: the rules' regular expressions, kept safe. A pattern
 * is checked when a rule is saved (the platform's Rust syntax has no lookaround and no
 * backreferences, and a quantified group that itself repeats is refused: the shapes that make a
 * backtracking engine exponential), and every match runs under a time budget in a `vm` context,
 * which V8 interrupts: a pattern that still backtracks badly is given up on (after a second
 * try, as the budget is wall-clock time), never hangs the server.
 */
import vm from 'node:vm';

/** How long the patterns of one piece of content may run together, in ms. */
export const REGEX_BUDGET_MS = 100;
/**
 * Runs past the budget before the patterns are given up on: the budget is wall-clock time, so a
 * busy process can lose one run to scheduling; a pattern that truly backtracks loses both.
 */
const REGEX_ATTEMPTS = 2;

/** Why a pattern is refused, or null when it is accepted. */
export function regexProblem(pattern: string): string | null {
  if (/\(\?<?[=!]/.test(pattern)) return 'Lookaround is not supported.';
  if (/\\[1-9]|\\k</.test(pattern)) return 'Backreferences are not supported.';
  try {
    new RegExp(pattern, 'iu');
  } catch {
    return 'Invalid regex.';
  }
  if (hasNestedRepetition(pattern)) return 'Regex is too complex (a repeated group repeats).';
  return null;
}

/**
 * Whether a group holding a quantifier or an alternation is itself quantified (`(a+)+`,
 * `(a|ab)*`, `(?:x*y)+`). Escapes and character classes are skipped.
 */
function hasNestedRepetition(pattern: string): boolean {
  /** Per open group: whether it holds a quantifier or an alternation. */
  const stack: boolean[] = [];
  let lastGroupRisky = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const ch = pattern[i];
    if (ch === '\\') {
      i += 1;
      lastGroupRisky = false;
      continue;
    }
    if (ch === '[') {
      i = classEnd(pattern, i);
      lastGroupRisky = false;
      continue;
    }
    if (ch === '(') {
      stack.push(false);
      lastGroupRisky = false;
      // `(?:`, `(?<name>`, `(?i:` open a group; their `?` repeats nothing.
      if (pattern[i + 1] === '?') i = groupPrefixEnd(pattern, i + 1);
      continue;
    }
    if (ch === ')') {
      lastGroupRisky = stack.pop() ?? false;
      continue;
    }
    const quantifier = ch === '*' || ch === '+' || ch === '?' || ch === '{';
    if (quantifier) {
      const repeats = ch !== '?' && !(ch === '{' && /^\{0?1?\}/.test(pattern.slice(i)));
      if (lastGroupRisky && repeats) return true;
      if (stack.length > 0) stack[stack.length - 1] = true;
    } else if (ch === '|' && stack.length > 0) {
      stack[stack.length - 1] = true;
    }
    lastGroupRisky = false;
  }
  return false;
}

/** The last index of a group's `?…` prefix (`?:`, `?<name>`, `?flags:`) that starts at `at`. */
function groupPrefixEnd(pattern: string, at: number): number {
  if (pattern[at + 1] === '<') {
    const close = pattern.indexOf('>', at);
    return close < 0 ? pattern.length : close;
  }
  let i = at + 1;
  while (i < pattern.length && /[a-zA-Z-]/.test(pattern[i] ?? '')) i += 1;
  // `(?i)` sets flags and is no group: the loop sees its `)` and closes it.
  return pattern[i] === ':' ? i : i - 1;
}

function classEnd(pattern: string, start: number): number {
  for (let i = start + 1; i < pattern.length; i += 1) {
    if (pattern[i] === '\\') i += 1;
    else if (pattern[i] === ']' && i > start + 1) return i;
  }
  return pattern.length;
}

/** A pattern's first match in the content: the pattern and the matched text. */
export interface RegexHit {
  pattern: string;
  matched: string;
  index: number;
}

const context = vm.createContext(Object.create(null) as object);
const firstMatch = new vm.Script(`(() => {
  for (let i = 0; i < patterns.length; i += 1) {
    const re = patterns[i];
    re.lastIndex = 0;
    let m;
    while ((m = re.exec(content)) !== null) {
      if (m[0].length === 0) { re.lastIndex += 1; continue; }
      if (!skip(i, m[0], m.index)) return [i, m[0], m.index];
    }
  }
  return null;
})()`);

/**
 * The first match of any pattern that `accept` takes (a match on the allow list is skipped), or
 * null; null as well when the patterns ran past {@link REGEX_BUDGET_MS} (reported through
 * `options.timedOut`).
 */
export function firstRegexHit(
  patterns: readonly string[],
  content: string,
  options: {
    /** Whether a match counts (one on the allow list does not). */
    accept: (matched: string) => boolean;
    /** Told when the patterns ran out of time. */
    timedOut?: () => void;
  },
): RegexHit | null {
  const { accept, timedOut } = options;
  if (patterns.length === 0 || content === '') return null;
  const usable = patterns.flatMap((pattern) => {
    try {
      return [{ pattern, re: new RegExp(pattern, 'giu') }];
    } catch {
      return [];
    }
  });
  const compiled = usable.map((entry) => entry.re);
  Object.assign(context, {
    patterns: compiled,
    content,
    skip: (_i: number, matched: string) => !accept(matched),
  });
  try {
    for (let attempt = 1; attempt <= REGEX_ATTEMPTS; attempt += 1) {
      try {
        const hit = firstMatch.runInContext(context, { timeout: REGEX_BUDGET_MS }) as
          [number, string, number] | null;
        if (hit === null) return null;
        const pattern = usable[hit[0]]?.pattern ?? '';
        return { pattern, matched: hit[1], index: hit[2] };
      } catch (err) {
        if ((err as { code?: unknown }).code !== 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw err;
      }
    }
    timedOut?.();
    return null;
  } finally {
    Object.assign(context, { patterns: [], content: '', skip: null });
  }
}
