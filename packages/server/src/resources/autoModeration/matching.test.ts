import { describe, expect, it } from 'vitest';
import { OutOfBudget, startBudget, type Budget } from './budget.js';
import { AllowList, KeywordMatcher, scanText } from './keywords.js';
import { compileRule } from './matchers.js';
import { firstPresetHit } from './presets.js';
import { compilePattern, firstRegexHit, regexProblem } from './regex.js';
import { createRuleMatching } from './ruleMatch.js';

const unlimited: Budget = { check: () => undefined };

const hitOf = (keywords: string[], content: string, allow: string[] = []) =>
  new KeywordMatcher(keywords, new AllowList(allow)).firstHit(scanText(content), unlimited);

/**
 * The matching as first written, one keyword and one occurrence at a time (quadratic, but plain):
 * the single-pass matcher must find what it finds.
 */
function reference(keywords: string[], allowList: string[], content: string) {
  const isWordChar = (ch: string | undefined) => ch !== undefined && /[\p{L}\p{N}_]/u.test(ch);
  const parse = (raw: string) => {
    const prefix = raw.startsWith('*');
    const suffix = raw.length > 1 && raw.endsWith('*');
    return { raw, prefix, suffix, text: raw.slice(prefix ? 1 : 0, suffix ? -1 : undefined) };
  };
  function* occurrences(keyword: ReturnType<typeof parse>, lower: string) {
    const text = keyword.text.toLowerCase();
    if (text === '') return;
    for (let at = lower.indexOf(text); at >= 0; at = lower.indexOf(text, at + 1)) {
      const end = at + text.length;
      if (!keyword.prefix && isWordChar(lower[at - 1])) continue;
      if (!keyword.suffix && isWordChar(lower[end])) continue;
      let start = at;
      while (keyword.prefix && isWordChar(lower[start - 1])) start -= 1;
      let stop = end;
      while (keyword.suffix && isWordChar(lower[stop])) stop += 1;
      yield [start, stop] as const;
    }
  }
  const allowed = (word: string) =>
    allowList.some((entry) => {
      for (const [start, stop] of occurrences(parse(entry), word.toLowerCase())) {
        if (start === 0 && stop === word.length) return true;
      }
      return false;
    });
  const lower = content.toLowerCase();
  for (const raw of keywords) {
    for (const [start, stop] of occurrences(parse(raw), lower)) {
      if (!allowed(content.slice(start, stop))) {
        return { keyword: raw, matched: content.slice(start, stop) };
      }
    }
  }
  return null;
}

describe('keyword matching', () => {
  const hit = (keywords: string[], content: string, allow: string[] = []) =>
    hitOf(keywords, content, allow)?.matched ?? null;

  it('matches whole words, or word parts with asterisks, case-insensitively', () => {
    expect(hit(['cat'], 'a Cat here')).toBe('Cat');
    expect(hit(['cat'], 'catch')).toBeNull();
    expect(hit(['cat*'], 'catch it')).toBe('catch');
    expect(hit(['*cat'], 'a bobcat')).toBe('bobcat');
    expect(hit(['*cat'], 'cats')).toBeNull();
    expect(hit(['*cat*'], 'concatenate')).toBe('concatenate');
    expect(hit(['bad word'], 'so BAD WORD!')).toBe('BAD WORD');
    expect(hit(['bad word'], 'bad words')).toBeNull();
    // Several words with wildcards, as the platform's documentation has them.
    expect(hit(['the mat*'], 'see the matrix')).toBe('the matrix');
    expect(hit(['*the mat'], 'breathe mat')).toBe('breathe mat');
    expect(hit(['*the mat*'], 'breathe matter')).toBe('breathe matter');
    expect(hit(['discord.gg/*'], 'join discord.gg/abc now')).toBe('discord.gg/abc');
  });

  it('reports the first keyword of the list that matches, and the first content it matches', () => {
    expect(hitOf(['dog', '*a*'], 'a cat, a dog')).toEqual({ keyword: 'dog', matched: 'dog' });
    expect(hitOf(['*a*', 'dog'], 'a cat, a dog')).toEqual({ keyword: '*a*', matched: 'a' });
    expect(hitOf(['x y', 'y'], 'y then x y')).toEqual({ keyword: 'x y', matched: 'x y' });
  });

  it('lets the allow list through and keeps searching', () => {
    expect(hit(['cat*'], 'category cattle', ['category'])).toBe('cattle');
    expect(hit(['cat*'], 'category', ['category'])).toBeNull();
    expect(hit(['*a*'], `${'a'.repeat(2000)} baa`, ['*aaaa*'])).toBe('baa');
    expect(hit(['discord.gg/*'], 'discord.gg/ours and discord.gg/spam', ['discord.gg/ours'])).toBe(
      'discord.gg/spam',
    );
    expect(new AllowList(['cat*']).coversText('Catalog')).toBe(true);
    expect(new AllowList(['dog']).coversText('dogs')).toBe(false);
    expect(new AllowList(['*to b*']).coversText('into bed')).toBe(true);
  });

  it('finds what matching keyword by keyword finds', () => {
    // A small alphabet, so that keywords, allow entries and texts overlap often.
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    const alphabet = ['a', 'b', 'é', 'A', ' ', '.', '_', '1'];
    const word = (max: number) =>
      Array.from({ length: 1 + random(max) }, () => alphabet[random(alphabet.length)]).join('');
    const entry = () => `${random(2) ? '*' : ''}${word(3)}${random(2) ? '*' : ''}`;
    for (let round = 0; round < 3000; round += 1) {
      const keywords = Array.from({ length: 1 + random(4) }, entry);
      const allow = Array.from({ length: random(3) }, entry);
      const content = word(24);
      expect(hitOf(keywords, content, allow), JSON.stringify({ keywords, allow, content })).toEqual(
        reference(keywords, allow, content),
      );
    }
  });

  it('finds preset words, whole words only', () => {
    const preset = (presets: number[], content: string, allow: string[] = []) =>
      firstPresetHit({ presets, allow: new AllowList(allow) }, scanText(content), unlimited);
    expect(preset([1], 'well, Damn.')).toBe('damn');
    expect(preset([1], 'well, damn', ['damn'])).toBeNull();
    expect(preset([2], 'well, damn')).toBeNull();
    expect(preset([1], 'grass')).toBeNull();
  });

  it('stops with OutOfBudget once the budget is spent', () => {
    let now = 0;
    const stepping = () => (now += 100);
    const spent = startBudget({ budgetMs: 50, wallClock: stepping, cpuClock: stepping });
    const matcher = new KeywordMatcher(['*a*', 'x y'], new AllowList([]));
    expect(() => matcher.firstHit(scanText('no hits here'), spent)).toThrow(OutOfBudget);
    const stopped = () => now;
    const ample = startBudget({ budgetMs: 50, wallClock: stopped, cpuClock: stopped });
    expect(matcher.firstHit(scanText('no hits here'), ample)).toBeNull();
  });
});

describe('regular expressions', () => {
  it('refuses lookaround, backreferences and bad syntax; nested repetition is fine', () => {
    expect(regexProblem('d[o0]g')).toBeNull();
    expect(regexProblem('(?:ab)+c')).toBeNull();
    expect(regexProblem('a{2,5}(b|c)')).toBeNull();
    // RE2 runs these in linear time: nothing to refuse.
    for (const nested of ['(a+)+', '(a|ab)*', '(?:x*y){2,}', '(?P<n>a)\\p{L}[[:alpha:]]']) {
      expect(regexProblem(nested), nested).toBeNull();
    }
    for (const bad of ['(?=a)', '(?<!a)b', '(a)\\1', '(a', 'a{1001}']) {
      expect(regexProblem(bad), bad).not.toBeNull();
    }
    expect(regexProblem('(a')).toBe('Invalid regex: missing closing ).');
  });

  it('matches case-insensitively and skips what the caller refuses', () => {
    const compiled = (...patterns: string[]) =>
      patterns.map((pattern) => ({ pattern, re: compilePattern(pattern) }));
    const options = (accept: (matched: string) => boolean) => ({ accept, budget: unlimited });
    expect(
      firstRegexHit(
        compiled('d[o0]g'),
        'a D0G',
        options(() => true),
      ),
    ).toEqual({
      pattern: 'd[o0]g',
      matched: 'D0G',
    });
    expect(
      firstRegexHit(
        compiled('d[o0]gs?'),
        'dogs then d0g',
        options((m) => m !== 'dogs'),
      ),
    ).toMatchObject({ matched: 'd0g' });
    // Rust's \u escapes; empty matches are no match.
    expect(
      firstRegexHit(
        compiled('\\u0041+'),
        'xaAy',
        options(() => true),
      ),
    ).toMatchObject({
      matched: 'aA',
    });
    expect(
      firstRegexHit(
        compiled('x*'),
        'abc',
        options(() => true),
      ),
    ).toBeNull();
    // Linear time: the backtracking engine's worst cases answer at once, and rightly.
    const slow = compiled('a*a*a*a*a*a*a*a*a*a*a*a*b', '.*.*.*.*.*.*.*.*!');
    expect(
      firstRegexHit(
        slow,
        'a'.repeat(2000),
        options(() => true),
      ),
    ).toBeNull();
    expect(
      firstRegexHit(
        slow,
        `${'a'.repeat(1990)}\n!`,
        options(() => true),
      ),
    ).toMatchObject({
      pattern: '.*.*.*.*.*.*.*.*!',
      matched: '!',
    });
  });
});

describe('a keyword rule', () => {
  const matching = createRuleMatching({ clock: { now: () => 0 } });
  const match = (metadata: Record<string, string[]>, content: string) =>
    matching.message(
      {
        rule: {
          id: '1',
          guildId: '2',
          creatorId: '3',
          name: 'rule',
          eventType: 1,
          triggerType: 1,
          triggerMetadata: metadata,
          actions: [],
          enabled: true,
          exemptRoles: [],
          exemptChannels: [],
          createdAt: 0,
        },
        matcher: () => compileRule(metadata),
      },
      { guildId: '2', userId: '4', content, text: scanText(content) },
      unlimited,
    );

  it('tries keywords first, then patterns against the text as written', () => {
    expect(match({ keyword_filter: ['cat'], regex_patterns: ['c.t'] }, 'cut the cat')).toEqual({
      keyword: 'cat',
      content: 'cat',
    });
    // "İ" lower-cases to two units ("i̇"): keywords match the lower-cased text, patterns the text.
    expect(match({ regex_patterns: ['İstanbul'] }, 'İSTANBUL!')).toEqual({
      keyword: 'İstanbul',
      content: 'İSTANBUL',
    });
    expect(match({ keyword_filter: ['i̇stanbul'] }, 'İstanbul')).toEqual({
      keyword: 'i̇stanbul',
      content: 'i̇stanbul',
    });
  });
});
