/**
 * @module resources/autoModeration/presets: the word lists of the KEYWORD_PRESET trigger
 * (PROFANITY 1, SEXUAL_CONTENT 2, SLURS 3). Whole words are matched, case-insensitively; the
 * slur list is kept as truncated SHA-256 hashes of the words so that the source does not spell
 * them out. The platform keeps its own lists private; these are the project's.
 */
import { createHash } from 'node:crypto';
import type { Budget } from './budget.js';
import type { AllowList, ScannedText } from './keywords.js';

export const KeywordPresets = { PROFANITY: 1, SEXUAL_CONTENT: 2, SLURS: 3 } as const;

const PROFANITY = new Set([
  'arse',
  'arsehole',
  'ass',
  'asshole',
  'bastard',
  'bitch',
  'bitches',
  'bollocks',
  'bullshit',
  'crap',
  'damn',
  'dick',
  'dickhead',
  'fuck',
  'fucked',
  'fucker',
  'fucking',
  'goddamn',
  'motherfucker',
  'piss',
  'pissed',
  'prick',
  'shit',
  'shitty',
  'twat',
  'wanker',
]);

const SEXUAL_CONTENT = new Set([
  'blowjob',
  'boobs',
  'cum',
  'dildo',
  'handjob',
  'hentai',
  'horny',
  'nude',
  'nudes',
  'orgasm',
  'orgy',
  'porn',
  'porno',
  'pussy',
  'sex',
  'sexting',
  'stripper',
  'tits',
  'vagina',
  'penis',
]);

/** Truncated (16 hex digits) SHA-256 of each slur. */
const SLUR_HASHES = new Set([
  '044eb98b18769b88',
  '08a841e996781e9e',
  '120f6e5b4ea32f65',
  '12e6274e4309293e',
  '158869a97379229b',
  '16ea09fc78ca83ca',
  '1e02eec4f1095143',
  '22fc75e65a0e9d34',
  '268651b3ece98010',
  '333f7618092958c7',
  '3b1e0d7c5dd45583',
  '3c8400b402baa7f1',
  '45cd3e1bb472d8e2',
  '5b3ae48be122f7ed',
  '886d51e97ad7931d',
  '8f5083e3e5c7dc89',
  '98b52c4b6b7d1f48',
  '9915ba2d822280f2',
  'c1cabb6f6e431f9c',
  'c3de533e9b7fe63b',
  'cc02032349c833ac',
  'e7b98c6aa5b944e0',
  'eef3bd091670c344',
  'f9d0d9b18ae9033a',
]);

const slurHash = (word: string) => createHash('sha256').update(word).digest('hex').slice(0, 16);

const inPreset: Record<number, (word: string) => boolean> = {
  [KeywordPresets.PROFANITY]: (word) => PROFANITY.has(word),
  [KeywordPresets.SEXUAL_CONTENT]: (word) => SEXUAL_CONTENT.has(word),
  [KeywordPresets.SLURS]: (word) => SLUR_HASHES.has(slurHash(word)),
};

/** How many words between two budget checks. */
const WORDS_PER_CHECK = 16;

/** The first word of the text in one of the presets that the allow list does not let through. */
export function firstPresetHit(
  lists: { presets: readonly number[]; allow: AllowList },
  text: ScannedText,
  budget: Budget,
): string | null {
  const { presets, allow } = lists;
  const checks = presets.flatMap((preset) => inPreset[preset] ?? []);
  if (checks.length === 0) return null;
  const { words, lower } = text;
  /** Each word's answer, so that a repeated word is looked up (and hashed) once. */
  const listed = new Map<string, boolean>();
  for (let w = 0; w < words.length; w += 2) {
    if (w % (2 * WORDS_PER_CHECK) === 0) budget.check();
    const start = words[w] ?? 0;
    const end = words[w + 1] ?? 0;
    const word = lower.slice(start, end);
    let found = listed.get(word);
    if (found === undefined) {
      found = checks.some((check) => check(word)) && !allow.covers(text, start, end);
      listed.set(word, found);
    }
    if (found) return word;
  }
  return null;
}
