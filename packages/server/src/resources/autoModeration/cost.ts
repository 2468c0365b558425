/**
 * @module resources/autoModeration/cost: what checking a rule may cost at worst, judged when the
 * rule is saved, so that a guild cannot save rules that could not be checked within the budget
 * of a message (they would fail closed on every long message). The model counts nanoseconds per
 * character of the longest text the rule checks (a 2,000-character message; a member's three
 * names): the figures of `COST_NS` are the slowest seen over worst-case texts, rounded up;
 * bench/automodModel.js measures them again beside the model (docs/benchmarks.md).
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
   */
  regexSkippedMatch: 300,
} as const;

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

/** The worst-case cost of a rule's lists and patterns, in ns per character of text. */
function keywordCostNs(metadata: SettingsJson): number {
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
    ns += COST_NS.regexSearch + instructions * regexInstructionNs(instructions);
    if (allowList.length > 0 || matchesEmpty(pattern)) {
      ns += COST_NS.regexSkippedMatch + phraseAllowChars * COST_NS.phraseAllowChar;
    }
  }
  return ns;
}

/** The worst-case time to check a rule against the longest text it checks, in ms. */
export function ruleCostMs(
  rule: { triggerType: number; triggerMetadata: SettingsJson },
  messageLength: number,
): number {
  let ns: number;
  switch (rule.triggerType) {
    case T.KEYWORD:
    case T.MEMBER_PROFILE:
      ns = keywordCostNs(rule.triggerMetadata);
      break;
    case T.KEYWORD_PRESET:
      ns = COST_NS.presets;
      break;
    default:
      // Mentions and repeated content cost next to nothing (and are not held to the budget).
      return 0;
  }
  return (ns * checkedLength(rule.triggerType, messageLength)) / 1e6;
}
