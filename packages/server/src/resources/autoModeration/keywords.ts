/**
 * @module resources/autoModeration/keywords: the platform's keyword matching, in one pass over
 * the text. A keyword is matched case-insensitively; without asterisks it matches whole words
 * only (`cat` is in "a cat" but not in "catch"); `cat*` matches words that start with it, `*cat`
 * words that end with it, `*cat*` anywhere inside a word. The matched content is the whole word
 * (words being runs of letters, digits and `_`; a keyword of several words, `bad word`, matches
 * them together). An allow-list entry, matched the same way against that content, lets it
 * through and matching goes on. Of several keywords that match, the first of the list is
 * reported, with the first content it matches.
 *
 * The text is scanned once (`scanText`); one-word keywords are looked up word by word
 * (`WordMatcher`), the others found by an automaton over the text, so the work grows with the
 * text and not with the number of keywords times the text.
 */
import type { Budget } from './budget.js';
import {
  Automaton,
  WordMatcher,
  isOneWord,
  parseEntry,
  wordFlags,
  type ListEntry,
} from './lists.js';

/** A text read once for every rule that checks it. */
export interface ScannedText {
  /** The text as written. */
  content: string;
  /** What matched content is cut from: the text, or its lower-cased form if lengths differ. */
  source: string;
  lower: string;
  /** 1 for each unit of `lower` in a word. */
  word: Uint8Array;
  /** Each word's start and end, one after the other. */
  words: Int32Array;
  /** For each position p (0 to length): where the run of word characters that ends at p begins. */
  runStart: Int32Array;
  /** For each position p: where the run of word characters that begins at p ends. */
  runEnd: Int32Array;
}

export function scanText(content: string): ScannedText {
  const lower = content.toLowerCase();
  const n = lower.length;
  const word = wordFlags(lower);
  const runStart = new Int32Array(n + 1);
  const runEnd = new Int32Array(n + 1);
  const words: number[] = [];
  for (let p = 1; p <= n; p += 1) runStart[p] = word[p - 1] === 1 ? (runStart[p - 1] ?? 0) : p;
  runEnd[n] = n;
  for (let p = n - 1; p >= 0; p -= 1) runEnd[p] = word[p] === 1 ? (runEnd[p + 1] ?? n) : p;
  for (let p = 0; p < n; p += 1) {
    if (word[p] === 1 && (p === 0 || word[p - 1] === 0)) words.push(p, runEnd[p] ?? n);
  }
  // Lower-casing may change lengths for a few scripts; then match on the lower-cased text.
  const source = n === content.length ? content : lower;
  return { content, source, lower, word, words: Int32Array.from(words), runStart, runEnd };
}

/** A part of a scanned text: `text.lower[start, end)`. */
interface Span {
  text: ScannedText;
  start: number;
  end: number;
}

/**
 * Whether a several-word entry covers all of a span: occurs in it so that, with its wildcards,
 * it reaches both ends (the span being taken as a text of its own).
 */
function phraseCovers(entry: ListEntry, { text, start, end }: Span): boolean {
  const length = entry.text.length;
  if (length === 0 || end - start < length) return false;
  // Where the entry may start: at the span's start, or (`*…`) before the span's first non-word
  // character; where it may end: at the span's end, or (`…*`) after its last non-word character.
  let low = start;
  let high = end - length;
  high = Math.min(high, entry.openStart ? (text.runEnd[start] ?? end) : start);
  low = Math.max(low, entry.openEnd ? (text.runStart[end] ?? start) - length : end - length);
  return low <= high && text.lower.slice(low, high + length).includes(entry.text);
}

/** An allow list, compiled: whether an entry covers a word, several words, or any text. */
export class AllowList {
  readonly #words: WordMatcher;
  readonly #phrases: ListEntry[];

  constructor(list: readonly string[]) {
    const entries = list.map(parseEntry).filter((e) => e.text !== '');
    this.#words = new WordMatcher(entries.filter((e) => isOneWord(e.text)));
    this.#phrases = entries.filter((e) => !isOneWord(e.text));
  }

  /** Whether an entry lets `text.lower[start, end)` through. */
  covers(text: ScannedText, start: number, end: number): boolean {
    if (end <= start) return false;
    // A one-word entry covers only one word, an entry of several words only several.
    if ((text.runEnd[start] ?? start) >= end) {
      return !this.#words.empty && this.#words.lowest(text.lower, start, end) !== Infinity;
    }
    const span = { text, start, end };
    return this.#phrases.some((entry) => phraseCovers(entry, span));
  }

  /** Whether an entry lets `content` through as a whole (a regex's match, a preset word). */
  coversText(content: string): boolean {
    return this.covers(scanText(content), 0, content.toLowerCase().length);
  }
}

/** A keyword found: the keyword as configured and the content it matched. */
export interface KeywordHit {
  keyword: string;
  matched: string;
}

/** How many words (or text units, for several-word keywords) between two budget checks. */
const WORDS_PER_CHECK = 16;
const UNITS_PER_CHECK = 256;

/** A keyword list with its allow list, compiled. */
export class KeywordMatcher {
  readonly #entries: ListEntry[];
  readonly #words: WordMatcher;
  readonly #phrases: Automaton;
  readonly #allow: AllowList;

  constructor(keywords: readonly string[], allow: AllowList) {
    this.#entries = keywords.map(parseEntry);
    const usable = this.#entries.filter((e) => e.text !== '');
    this.#words = new WordMatcher(usable.filter((e) => isOneWord(e.text)));
    this.#phrases = new Automaton(usable.filter((e) => !isOneWord(e.text)));
    this.#allow = allow;
  }

  /** The first keyword of the list found in `text` and not let through by the allow list. */
  firstHit(text: ScannedText, budget: Budget): KeywordHit | null {
    const best = { index: Infinity, start: 0, end: 0 };
    if (!this.#words.empty) this.#wordHits(text, budget, best);
    if (!this.#phrases.empty) this.#phraseHits(text, budget, best);
    const entry = this.#entries[best.index];
    return entry === undefined
      ? null
      : { keyword: entry.raw, matched: text.source.slice(best.start, best.end) };
  }

  #wordHits(
    text: ScannedText,
    budget: Budget,
    best: { index: number; start: number; end: number },
  ) {
    const { words, lower } = text;
    for (let w = 0; w < words.length; w += 2) {
      if (w % (2 * WORDS_PER_CHECK) === 0) budget.check();
      const start = words[w] ?? 0;
      const end = words[w + 1] ?? 0;
      const index = this.#words.lowest(lower, start, end);
      if (index < best.index && !this.#allow.covers(text, start, end)) {
        Object.assign(best, { index, start, end });
      }
    }
  }

  #phraseHits(
    text: ScannedText,
    budget: Budget,
    best: { index: number; start: number; end: number },
  ) {
    const { lower, word, runStart, runEnd } = text;
    const n = lower.length;
    /** Whether the allow list covers a span, by start × (n + 1) + end. */
    const allowed = new Map<number, boolean>();
    let node = 0;
    for (let p = 0; p < n; p += 1) {
      if (p % UNITS_PER_CHECK === 0) budget.check();
      node = this.#phrases.step(node, lower.charCodeAt(p));
      if (this.#phrases.lowest(node) >= best.index) continue;
      const end = p + 1;
      for (const entries of this.#phrases.endingAt(node)) {
        for (const entry of entries) {
          if (entry.index >= best.index) break;
          const at = end - entry.text.length;
          // Without `*` on a side, the match must begin (end) a word there.
          if (!entry.openStart && word[at - 1] === 1) continue;
          if (!entry.openEnd && word[end] === 1) continue;
          const start = entry.openStart ? (runStart[at] ?? at) : at;
          const stop = entry.openEnd ? (runEnd[end] ?? end) : end;
          const key = start * (n + 1) + stop;
          let ok = allowed.get(key);
          if (ok === undefined) {
            ok = this.#allow.covers(text, start, stop);
            allowed.set(key, ok);
          }
          if (!ok) Object.assign(best, { index: entry.index, start, end: stop });
        }
      }
    }
  }
}
