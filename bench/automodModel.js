/**
 * The save-time cost model of auto-moderation (packages/server/src/resources/autoModeration/
 * cost.ts) against the CPU time the checks take: each rule below (lists, a pattern, a pattern
 * with an allow list) is checked, warm, against texts made to be its worst (long words,
 * one-letter words, astral letters, a letter whose lower case is longer, matches to pass over),
 * and the slowest text's nanoseconds per character are printed beside what the model charges. The model must stay above every row (`measured ÷ model` under 1); its figures come from
 * these runs, rounded up.
 *
 *   node bench/automodModel.js [--rounds 5]
 */
import console from 'node:console';
import process from 'node:process';
import { parseArgs } from 'node:util';
import {
  compileCostMs,
  ruleCostMs,
} from '../packages/server/dist/resources/autoModeration/cost.js';
import { scanText } from '../packages/server/dist/resources/autoModeration/keywords.js';
import { compileRule } from '../packages/server/dist/resources/autoModeration/matchers.js';
import { compilePattern } from '../packages/server/dist/resources/autoModeration/regex.js';
import { createRuleMatching } from '../packages/server/dist/resources/autoModeration/ruleMatch.js';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' } } });
const rounds = Number(values.rounds);
const LENGTH = 2000;
const unlimited = { check: () => undefined };

let seed = 99;
const randomWord = (letters, min, max) => {
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  const length = min + (next() % (max - min + 1));
  return Array.from({ length }, () => letters[next() % letters.length]).join('');
};
const twoLetterWords = [];
for (const a of 'abcdefghijklmnopqrstuvwxyz')
  for (const b of 'abcdefghijklmnopqrstuvwxyz') twoLetterWords.push(a + b);

/** 2,000-character texts, each the worst case of some matcher. */
const TEXTS = {
  'a…a': 'a'.repeat(LENGTH),
  'a a a': 'a '.repeat(LENGTH / 2),
  words: Array.from({ length: 500 }, () => randomWord('abcdefghij ', 2, 7))
    .join(' ')
    .slice(0, LENGTH),
  'ab ac ad': twoLetterWords.join(' ').slice(0, LENGTH),
  astral: '𝐚'.repeat(LENGTH / 2),
  İİİ: 'İ'.repeat(LENGTH),
  'a…a\\n.': `${'a'.repeat(LENGTH - 2)}\n.`,
  'dog dog': 'dog '.repeat(LENGTH / 4),
};

/** CPU time (user + system) of this process, in ns. */
const cpuNs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) * 1000;
};

/**
 * The CPU time of one `run`, in ns: the best of `rounds` runs, after two to warm up. One run, as
 * one message is checked, not the mean of a batch (which caches and the JIT make cheaper).
 */
function timeNs(run) {
  run();
  run();
  let best = Infinity;
  for (let round = 0; round < rounds; round += 1) {
    const start = cpuNs();
    run();
    best = Math.min(best, cpuNs() - start);
  }
  return best;
}

/** The slowest text for `match(text)`, in ns per character. */
function worstNsPerChar(match) {
  let worst = { ns: 0, text: '' };
  for (const [name, content] of Object.entries(TEXTS)) {
    const ns = timeNs(() => match(content)) / LENGTH;
    if (ns > worst.ns) worst = { ns, text: name };
  }
  return worst;
}

const wildcard = (i, word) => `${i % 2 ? '*' : ''}${word}${(i >> 1) % 2 ? '*' : ''}`;
const matching = createRuleMatching({ clock: { now: () => 0 } });
const rows = [];

/** A rule of `triggerType` with `metadata`: what the model charges, what its check takes. */
function rule(name, metadata, triggerType = 1) {
  const record = { id: name, triggerType, triggerMetadata: metadata };
  const compiled = compileRule(metadata);
  const prepared = { rule: record, matcher: () => compiled };
  const message = (content) => ({ guildId: '1', userId: '2', content, text: scanText(content) });
  // The check alone: the compile, which the model also charges, is not measured here.
  const model = ((ruleCostMs(record, LENGTH) - compileCostMs(metadata)) * 1e6) / LENGTH;
  rows.push({
    name,
    model,
    ...worstNsPerChar((content) => matching.message(prepared, message(content), unlimited)),
  });
}

rule('1,000 keywords, 100 allow', {
  keyword_filter: Array.from({ length: 1000 }, (_, i) =>
    wildcard(i, randomWord('abcdefghij', 1, 40)),
  ),
  allow_list: Array.from({ length: 100 }, (_, i) => wildcard(i, randomWord('abcdefghij', 1, 40))),
});
rule('58 wildcards *a…*, allow', {
  keyword_filter: Array.from({ length: 58 }, (_, i) => `*${'a'.repeat(i + 1)}*`),
  allow_list: ['*aaaa*'],
});
rule(
  'presets 1, 2, 3, 1,000 allow',
  {
    presets: [1, 2, 3],
    allow_list: Array.from({ length: 1000 }, () => `*${randomWord('abcdefghij', 4, 4)}*`),
  },
  4,
);
rule('10 phrases, 10 phrase allow', {
  keyword_filter: Array.from({ length: 10 }, (_, i) => `*a ${'a'.repeat(i)}*`),
  allow_list: Array.from({ length: 10 }, (_, i) => `*a ${'a'.repeat(i)}a*`),
});
for (const pattern of [
  'd[o0]gs?\\b',
  '.*.*.*.*.*.*.*.*!',
  '(a+)+$',
  'a{1,10}b',
  '(?:a|b|\\pL){30}!',
  '(?:\\w+\\s*){1,30}!',
  '\\w{100}\\d',
  '(?:a|b|\\pL){100}!',
  '[a-z]{160}0',
  '.{300}!',
  '(?:a|b|\\pL){300}!',
  '.{1000}!',
]) {
  rule(`${pattern} (${compilePattern(pattern).programSize()})`, { regex_patterns: [pattern] });
}
// Matches passed over: on the allow list, or empty.
rule('a, allow a', { regex_patterns: ['a'], allow_list: ['a'] });
rule('d[o0]g, allow dog', { regex_patterns: ['d[o0]g'], allow_list: ['dog'] });
rule('x* (empty matches)', { regex_patterns: ['x*'] });
rule('\\w{1,50}, allow *a*', { regex_patterns: ['\\w{1,50}'], allow_list: ['*a*'] });

console.log(
  `CPU ns per character, the slowest of ${Object.keys(TEXTS).length} texts (best of ${rounds} runs each):`,
);
console.log(
  '| matcher (program size)          | slowest text | measured |  model | measured ÷ model |',
);
console.log(
  '| ------------------------------- | ------------ | -------: | -----: | ---------------: |',
);
for (const { name, text, ns, model } of rows) {
  const cells = [
    name.padEnd(31),
    text.padEnd(12),
    ns.toFixed(0).padStart(8),
    String(model).padStart(6),
    (ns / model).toFixed(2).padStart(16),
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
