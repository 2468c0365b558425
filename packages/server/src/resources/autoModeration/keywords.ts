/**
 * @module resources/autoModeration/keywords: the platform's keyword matching. A keyword is
 * matched case-insensitively; without asterisks it matches whole words only (`cat` is in "a cat"
 * but not in "catch"); `cat*` matches words that start with it, `*cat` words that end with it,
 * `*cat*` anywhere inside a word. The matched content is the whole word (words being runs of
 * letters, digits and `_`). An allow-list entry, matched the same way against that word, lets it
 * through and matching goes on.
 */

const WORD_CHAR = /[\p{L}\p{N}_]/u;

const isWordChar = (ch: string | undefined): boolean => ch !== undefined && WORD_CHAR.test(ch);

/** A keyword as typed, split into its text and its wildcards. */
interface Keyword {
  raw: string;
  text: string;
  prefix: boolean;
  suffix: boolean;
}

function parseKeyword(raw: string): Keyword {
  const prefix = raw.startsWith('*');
  const suffix = raw.length > 1 && raw.endsWith('*');
  const text = raw.slice(prefix ? 1 : 0, suffix ? -1 : undefined).toLowerCase();
  return { raw, text, prefix, suffix };
}

/** Where a keyword occurs in (already lower-cased) text: the match and its whole word. */
interface KeywordHit {
  keyword: string;
  /** The word (or words, for a phrase) that holds the match, as the content has it. */
  matched: string;
  index: number;
}

function* occurrences(keyword: Keyword, lower: string, original: string): Generator<KeywordHit> {
  if (keyword.text === '') return;
  let from = 0;
  for (;;) {
    const at = lower.indexOf(keyword.text, from);
    if (at < 0) return;
    from = at + 1;
    const end = at + keyword.text.length;
    // `*` on a side lets the word go on there; without it the match must end the word.
    if (!keyword.prefix && isWordChar(lower[at - 1])) continue;
    if (!keyword.suffix && isWordChar(lower[end])) continue;
    let start = at;
    while (keyword.prefix && isWordChar(lower[start - 1])) start -= 1;
    let stop = end;
    while (keyword.suffix && isWordChar(lower[stop])) stop += 1;
    yield { keyword: keyword.raw, matched: original.slice(start, stop), index: start };
  }
}

/** Whether `word` is let through by an allow-list entry (matched the same way). */
export function allowed(allowList: readonly string[], word: string): boolean {
  const lower = word.toLowerCase();
  return allowList.some((entry) => {
    for (const hit of occurrences(parseKeyword(entry), lower, word)) {
      if (hit.index === 0 && hit.matched.length === word.length) return true;
      // A phrase or wildcard entry covering the whole word lets it through too.
      if (hit.matched.toLowerCase() === lower) return true;
    }
    return false;
  });
}

/** The first keyword of the list found in `content` that the allow list does not let through. */
export function firstKeywordHit(
  keywords: readonly string[],
  allowList: readonly string[],
  content: string,
): KeywordHit | null {
  const lower = content.toLowerCase();
  // Lower-casing may change lengths for a few scripts; then match on the lower-cased text.
  const original = lower.length === content.length ? content : lower;
  for (const raw of keywords) {
    for (const hit of occurrences(parseKeyword(raw), lower, original)) {
      if (!allowed(allowList, hit.matched)) return hit;
    }
  }
  return null;
}

/** The words of `content` (lower-cased), for the preset word lists. */
export function wordsOf(content: string): string[] {
  return content.toLowerCase().match(/[\p{L}\p{N}_]+/gu) ?? [];
}
