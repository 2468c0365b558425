/**
 * What auto-moderation adds to a message create, with rules made to be slow: the real Guildhall
 * app in-process (SQLite in a temporary folder, rate limits off), a guild per scenario whose
 * owner saved the rules through the API, and its bot (neither owner nor MANAGE_GUILD, so checked)
 * posting 2,000-character messages through `app.http.inject` that no rule blocks, so every rule
 * is checked to the end. Prints the process's CPU time per create (user + system, which a busy
 * machine barely moves), and the ratio to the same create in a guild without rules.
 *
 * Scenarios (each guild takes as many rules of its kind as the save-time cost check lets in, at
 * most six, or `--rules`):
 * - none: no rules (the baseline);
 * - wildcards: 40 keywords `*a*` … `*aaa…a*` (40 a's), let through by the last of 21 allow-list
 *   entries `*b*` … `*bbb…b*`, `*aaaa*`, against a 2,000-letter word and two 1,000-letter ones;
 * - keywords: 1,000 keywords (whole words, `w*`, `*w`, `*w*`) and 100 allow-list entries, against
 *   words none of them matches;
 * - regex: 10 patterns a backtracking engine takes exponential or polynomial time on
 *   (`.*.*.*.*.*.*.*.*!`, `(a+)+$`, …), against runs of `a`s that none of them matches.
 *
 * bench/automodModel.js checks the save-time cost model against the matchers themselves.
 *
 *   node bench/automod.js [--messages 200] [--rounds 3] [--rules 6]
 *                         [--scenario all|wildcards|keywords|regex, or several: wildcards,regex]
 */
import console from 'node:console';
import process from 'node:process';
import { parseArgs } from 'node:util';
import { botGuild, seedDeveloper, startInProcessApp } from './support/benchApp.js';
import { integerReader, readOptions } from './support/options.js';

/** Deterministic words, so every run saves the same lists. */
let seed = 12_345;
const randomWord = (letters, min, max) => {
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  const length = min + (next() % (max - min + 1));
  return Array.from({ length }, () => letters[next() % letters.length]).join('');
};
const wildcard = (i, word) => `${i % 2 ? '*' : ''}${word}${(i >> 1) % 2 ? '*' : ''}`;

const SCENARIOS = {
  none: { metadata: null, contents: ['a'.repeat(2000), 'hello there '.repeat(166)] },
  wildcards: {
    metadata: {
      keyword_filter: Array.from({ length: 40 }, (_, i) => `*${'a'.repeat(i + 1)}*`),
      allow_list: [...Array.from({ length: 20 }, (_, i) => `*${'b'.repeat(i + 1)}*`), '*aaaa*'],
    },
    contents: ['a'.repeat(2000), `${'a'.repeat(999)} ${'a'.repeat(1000)}`],
  },
  keywords: {
    metadata: {
      keyword_filter: [
        ...new Set(
          Array.from({ length: 1100 }, (_, i) => wildcard(i, randomWord('abcdefghij', 3, 20))),
        ),
      ].slice(0, 1000),
      allow_list: [
        ...new Set(
          Array.from({ length: 120 }, (_, i) => wildcard(i, randomWord('abcdefghij', 3, 20))),
        ),
      ].slice(0, 100),
    },
    contents: [
      Array.from({ length: 400 }, () => randomWord('klmnopqrstuvwxyz', 1, 8))
        .join(' ')
        .slice(0, 2000),
      'k'.repeat(2000),
    ],
  },
  regex: {
    metadata: {
      regex_patterns: [
        '.*.*.*.*.*.*.*.*!',
        'a*a*a*a*a*a*a*a*a*a*a*a*b',
        '(a+)+$',
        '(a|aa)+$',
        '(a|a?)+$',
        '(x+x+)+y',
        '(\\w+\\s?)+!',
        '(?:a*)*b',
        '(a*)+c',
        '(.*a){10}!',
      ],
    },
    contents: [`${'a'.repeat(1990)}\n.`, `${'a'.repeat(1999)}.`],
  },
};
const USAGE = `Usage: node bench/automod.js [options]   (after npx tsc -b)

Options:
  --messages <n>      messages created per round and scenario (default 200)
  --rounds <n>        rounds per scenario; the median is reported (default 3)
  --rules <n>         rules saved per guild at most, as many as the cost check lets in (default 6)
  --scenario <list>   all, or some of wildcards, keywords, regex, comma-separated (default all)
  --help              print this help`;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      messages: { type: 'string', default: '200' },
      rounds: { type: 'string', default: '3' },
      scenario: { type: 'string', default: 'all' },
      rules: { type: 'string', default: '6' },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = integerReader(values);
  const names =
    values.scenario === 'all' ? Object.keys(SCENARIOS) : ['none', ...values.scenario.split(',')];
  const unknown = names.find((name) => !Object.hasOwn(SCENARIOS, name));
  if (unknown !== undefined) throw new Error(`--scenario has no scenario "${unknown}".`);
  return {
    help: values.help,
    messages: integer('messages', [1, 1_000_000]),
    rounds: integer('rounds', [1, 1000]),
    maxRules: integer('rules', [1, 1000]),
    names,
  };
}

const { options, exitCode } = readOptions(parseOptions, USAGE);
if (options === null) process.exit(exitCode);
const { messages, rounds, maxRules, names } = options;

const { app, close } = await startInProcessApp('automod');
const { developer: owner, botToken, application } = await seedDeveloper(app);

/** An API request through `app.http.inject`: `[method, url]` with an Authorization header. */
const call = async ([method, url], token, payload) =>
  app.http.inject({ method, url: `/api/v10${url}`, headers: { authorization: token }, payload });

/** A guild with the scenario's rules (as many as fit, at most six); its channel and rule count. */
async function guildFor(name) {
  const { guild, channels } = await botGuild(app, {
    ownerId: owner.user_id,
    applicationId: application.id,
    name,
  });
  let rules = 0;
  const { metadata } = SCENARIOS[name];
  while (metadata !== null && rules < maxRules) {
    const res = await call(['POST', `/guilds/${guild.id}/auto-moderation/rules`], owner.token, {
      name: `${name} ${rules}`,
      event_type: 1,
      trigger_type: 1,
      trigger_metadata: metadata,
      actions: [{ type: 1 }],
      enabled: true,
    });
    if (res.statusCode !== 200) {
      if (rules === 0) throw new Error(`${name}: ${res.body}`);
      break;
    }
    rules += 1;
  }
  return { channelId: channels[0].id, rules };
}

async function post(channelId, contents, n) {
  for (let i = 0; i < n; i += 1) {
    const content = contents[i % contents.length];
    const res = await call(['POST', `/channels/${channelId}/messages`], `Bot ${botToken}`, {
      content,
    });
    if (res.statusCode !== 200) {
      throw new Error(`create "${content.slice(0, 20)}…": ${res.statusCode} ${res.body}`);
    }
  }
}

const results = [];
for (const name of names) {
  const { channelId, rules } = await guildFor(name);
  const { contents } = SCENARIOS[name];
  await post(channelId, contents, Math.min(messages, 50));
  const perCreate = [];
  for (let round = 0; round < rounds; round += 1) {
    const before = process.cpuUsage();
    await post(channelId, contents, messages);
    const used = process.cpuUsage(before);
    perCreate.push((used.user + used.system) / messages);
  }
  perCreate.sort((a, b) => a - b);
  results.push({ name, rules, micros: perCreate[Math.floor(rounds / 2)] });
}
await close();

const baseline = results[0].micros;
console.log(`CPU per create, medians of ${rounds} rounds of ${messages} messages:`);
console.log('| scenario  | rules | µs/create | × none | µs added |');
console.log('| --------- | ----: | --------: | -----: | -------: |');
for (const { name, rules, micros } of results) {
  const cells = [
    name.padEnd(9),
    String(rules).padStart(5),
    micros.toFixed(0).padStart(9),
    (micros / baseline).toFixed(2).padStart(6),
    (micros - baseline).toFixed(0).padStart(8),
  ];
  console.log(`| ${cells.join(' | ')} |`);
}
