/**
 * @module resources/autoModeration/cost: what checking a rule may cost at worst, judged when the
 * rule is saved, so that a guild cannot save rules that could not be checked within the budget
 * of a message (they would fail closed on every long message). The model counts nanoseconds per
 * character of the longest text the rule checks (a 2,000-character message; a member's three
 * names), and what compiling the rule may cost (a check compiles the rules the server does not
 * keep compiled, within its budget): the figures of `COST_NS` are the slowest seen over
 * worst-case texts, rounded up; bench/automodModel.js measures them again beside the model
 * (docs/benchmarks.md).
 */
import type { RE2JS } from 're2js';
import type { SettingsJson } from '../../storage/index.js';
import { isOneWord, parseEntry } from './lists.js';
import { metadataList } from './matchers.js';
import { compilePattern } from './regex.js';
import { AutoModTriggers as T } from './schemas.js';

/** The model's costs, in nanoseconds per character of text. */
export const COST_NS = {
  /** Reading the text, splitting it into words, looking each word up in the lists. */
  words: 300,
  /** The same with the preset lists (each new word hashed for the slur list). */
  presets: 750,
  /** A step of the automaton of the several-word keywords. */
  phraseStep: 40,
  /** Each several-word keyword that may end at a character: its span and allow-list check. */
  phraseEnding: 60,
  /** Per character of the several-word allow entries, for each span checked against them. */
  phraseAllowChar: 2,
  /** One pattern's search, besides its instructions. */
  regexSearch: 100,
  /**
   * A pattern whose matches may be passed over (the rule has an allow list, or the pattern can
   * match nothing): a search again after each, up to one per two characters, and its check.
   * The search again rereads what the last one read past the match's end: see
   * {@link rescannedChars}.
   */
  regexSkippedMatch: 300,
} as const;

/**
 * The model's costs of compiling a rule (when the enforcer does not keep it compiled, its check
 * compiles it within the budget), in nanoseconds: per character of the keyword and allow lists
 * (the automata of infix and several-word entries are the slowest), and per instruction of a
 * pattern's program.
 */
export const COMPILE_NS = { listChar: 400, regexInstruction: 300 } as const;

/** Whether a pattern has unbounded repetition (`*`, `+`, `{n,}`; an escaped one counts too). */
function repeatsUnbounded(source: string): boolean {
  return /[*+]|\{\d+,\}/.test(source);
}

/**
 * How many characters a search started again after a passed-over match may reread, at worst,
 * for each character of a text of `length`. RE2 reads on past a match while a preferred
 * alternative may still match (`a[^z]*z|a` on `aaa…` reads to the end for each `a`): without
 * unbounded repetition no thread outlives one instruction per character, so at most the
 * program's size; with it, the rest of the text, so the cost grows with the square of the length.
 */
export function rescannedChars(source: string, programSize: number, length: number): number {
  return repeatsUnbounded(source) ? length : programSize;
}

/**
 * A pattern's cost per instruction of its program (RE2 may run all of them at each character):
 * more for larger programs, which thrash caches and hold more classes.
 */
export function regexInstructionNs(programSize: number): number {
  if (programSize <= 16) return 20;
  return programSize <= 64 ? 40 : 90;
}

/** The longest text a rule of each trigger type checks, in characters. */
export function checkedLength(triggerType: number, messageLength: number): number {
  // Nickname, display name and username: 32 characters each.
  return triggerType === T.MEMBER_PROFILE ? 3 * 32 : messageLength;
}

/**
 * How many several-word keywords may end at one character at most: those whose text is a
 * suffix of another's (`a b`, `x a b`) end together.
 */
function endingTogether(texts: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const text of texts) counts.set(text, (counts.get(text) ?? 0) + 1);
  let most = 0;
  for (const text of counts.keys()) {
    let together = 0;
    for (let i = 0; i < text.length; i += 1) together += counts.get(text.slice(i)) ?? 0;
    most = Math.max(most, together);
  }
  return most;
}

/** A text with an empty match for every kind of empty-width pattern (`x*`, `\b`, `^`, `$`). */
const EMPTY_PROBE = ' aA1_.\n';

/** Whether a pattern can match the empty string somewhere (its search then goes on after it). */
function matchesEmpty(pattern: RE2JS): boolean {
  const matcher = pattern.matcher(EMPTY_PROBE);
  while (matcher.find()) if (matcher.start() === matcher.end()) return true;
  return false;
}

/** The worst-case cost of a rule's lists and patterns, in ns per character of `length`. */
function keywordCostNs(metadata: SettingsJson, length: number): number {
  const phrases = metadataList(metadata, 'keyword_filter')
    .map(parseEntry)
    .filter((e) => e.text !== '' && !isOneWord(e.text));
  const allowList = metadataList(metadata, 'allow_list');
  const phraseAllowChars = allowList
    .map(parseEntry)
    .filter((e) => e.text !== '' && !isOneWord(e.text))
    .reduce((sum, e) => sum + 2 * e.text.length, 0);
  const allowCheck = COST_NS.phraseEnding + phraseAllowChars * COST_NS.phraseAllowChar;
  let ns = COST_NS.words;
  if (phrases.length > 0) {
    ns += COST_NS.phraseStep + endingTogether(phrases.map((e) => e.text)) * allowCheck;
  }
  for (const source of metadataList(metadata, 'regex_patterns')) {
    let pattern: RE2JS;
    try {
      pattern = compilePattern(source);
    } catch {
      continue; // Refused when saved; skipped when checked.
    }
    const instructions = pattern.programSize();
    const search = COST_NS.regexSearch + instructions * regexInstructionNs(instructions);
    ns += search;
    if (allowList.length > 0 || matchesEmpty(pattern)) {
      ns += COST_NS.regexSkippedMatch + phraseAllowChars * COST_NS.phraseAllowChar;
      ns += rescannedChars(source, instructions, length) * search;
    }
  }
  return ns;
}

/** The worst-case time to compile a rule's lists and patterns, in ms. */
export function compileCostMs(metadata: SettingsJson): number {
  let ns = 0;
  for (const key of ['keyword_filter', 'allow_list']) {
    for (const entry of metadataList(metadata, key)) ns += entry.length * COMPILE_NS.listChar;
  }
  for (const source of metadataList(metadata, 'regex_patterns')) {
    try {
      ns += compilePattern(source).programSize() * COMPILE_NS.regexInstruction;
    } catch {
      // Refused when saved; skipped when checked.
    }
  }
  return ns / 1e6;
}

/**
 * The worst-case time to compile a rule and check it against the longest text it checks, in
 * ms (both are counted in a check's budget).
 */
export function ruleCostMs(
  rule: { triggerType: number; triggerMetadata: SettingsJson },
  messageLength: number,
): number {
  const length = checkedLength(rule.triggerType, messageLength);
  switch (rule.triggerType) {
    case T.KEYWORD:
    case T.MEMBER_PROFILE:
      return (
        (keywordCostNs(rule.triggerMetadata, length) * length) / 1e6 +
        compileCostMs(rule.triggerMetadata)
      );
    case T.KEYWORD_PRESET:
      return (COST_NS.presets * length) / 1e6 + compileCostMs(rule.triggerMetadata);
    default:
      // Mentions and repeated content cost next to nothing (and are not held to the budget).
      return 0;
  }
}
