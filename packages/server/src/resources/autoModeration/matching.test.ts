import { describe, expect, it } from 'vitest';
import { allowed, firstKeywordHit } from './keywords.js';
import { firstPresetHit } from './presets.js';
import { firstRegexHit, regexProblem } from './regex.js';

describe('keyword matching', () => {
  const hit = (keywords: string[], content: string, allow: string[] = []) =>
    firstKeywordHit(keywords, allow, content)?.matched ?? null;

  it('matches whole words, or word parts with asterisks, case-insensitively', () => {
    expect(hit(['cat'], 'a Cat here')).toBe('Cat');
    expect(hit(['cat'], 'catch')).toBeNull();
    expect(hit(['cat*'], 'catch it')).toBe('catch');
    expect(hit(['*cat'], 'a bobcat')).toBe('bobcat');
    expect(hit(['*cat'], 'cats')).toBeNull();
    expect(hit(['*cat*'], 'concatenate')).toBe('concatenate');
    expect(hit(['bad word'], 'so BAD WORD!')).toBe('BAD WORD');
    expect(hit(['bad word'], 'bad words')).toBeNull();
  });

  it('lets the allow list through and keeps searching', () => {
    expect(hit(['cat*'], 'category cattle', ['category'])).toBe('cattle');
    expect(hit(['cat*'], 'category', ['category'])).toBeNull();
    expect(allowed(['cat*'], 'Catalog')).toBe(true);
    expect(allowed(['dog'], 'dogs')).toBe(false);
  });

  it('finds preset words, whole words only', () => {
    expect(firstPresetHit([1], [], 'well, Damn.')).toBe('damn');
    expect(firstPresetHit([1], ['damn'], 'well, damn')).toBeNull();
    expect(firstPresetHit([2], [], 'well, damn')).toBeNull();
    expect(firstPresetHit([1], [], 'grass')).toBeNull();
  });
});

describe('regular expressions', () => {
  it('refuses lookaround, backreferences, bad syntax and repeated repetition', () => {
    expect(regexProblem('d[o0]g')).toBeNull();
    expect(regexProblem('(?:ab)+c')).toBeNull();
    expect(regexProblem('a{2,5}(b|c)')).toBeNull();
    for (const bad of ['(?=a)', '(?<!a)b', '(a)\\1', '(a', '(a+)+', '(a|ab)*', '(?:x*y){2,}']) {
      expect(regexProblem(bad), bad).not.toBeNull();
    }
  });

  it('matches case-insensitively, skips what the caller refuses, gives up past its budget', () => {
    const accept = () => true;
    expect(firstRegexHit(['d[o0]g'], 'a D0G', { accept })).toMatchObject({ matched: 'D0G' });
    expect(
      firstRegexHit(['d[o0]gs?'], 'dogs then d0g', { accept: (m) => m !== 'dogs' }),
    ).toMatchObject({ matched: 'd0g' });
    let timedOut = false;
    const slow = firstRegexHit(['a*a*a*a*a*a*a*a*a*a*a*a*b'], 'a'.repeat(60), {
      accept,
      timedOut: () => {
        timedOut = true;
      },
    });
    expect(slow).toBeNull();
    expect(timedOut).toBe(true);
  });
});
