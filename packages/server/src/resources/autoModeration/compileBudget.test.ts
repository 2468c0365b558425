import { describe, expect, it } from 'vitest';
import type { AutoModRuleRecord } from '../../storage/index.js';
import { startBudget } from './budget.js';
import { compileCostMs, ruleCostMs } from './cost.js';
import { scanText } from './keywords.js';
import { createRuleMatchers } from './matchers.js';
import { createRuleMatching } from './ruleMatch.js';

/** A KEYWORD rule of `guildId` with `keywords`. */
const rule = (guildId: string, id: string, keywords: string[]): AutoModRuleRecord =>
  ({
    id,
    guildId,
    triggerType: 1,
    eventType: 1,
    triggerMetadata: { keyword_filter: keywords },
  }) as unknown as AutoModRuleRecord;

/** A thousand distinct 60-character infix keywords (the most costly entries to compile). */
const infixList = (tag: string) =>
  Array.from({ length: 1000 }, (_, i) => `*${tag}${String(i).padStart(57, 'q')}*`);

describe('compiling rules within the budget', () => {
  const matching = createRuleMatching({ clock: { now: () => 0 } });
  /** A stopwatch the test moves: each reading `tick` ms after the last. */
  const clocks = (tick: number) => {
    let now = 0;
    const stopwatch = () => (now += tick);
    return { budgetMs: 50, wallClock: stopwatch, cpuClock: stopwatch };
  };
  /** Checks `content` against `rules` as the enforcer does; counts the rules it had to compile. */
  const check = (
    matchers: ReturnType<typeof createRuleMatchers>,
    rules: AutoModRuleRecord[],
    tick: number,
  ) => {
    const budget = startBudget(clocks(tick));
    let compiled = 0;
    const spend = () => {
      compiled += 1;
      budget.check();
    };
    const message = { guildId: 'g', userId: 'u', content: 'hello', text: scanText('hello') };
    const results = rules.map((r) =>
      matching.message({ rule: r, matcher: () => matchers.of(r, spend) }, message, budget),
    );
    return { compiled, results };
  };

  it('counts compiling in the budget: a rule it cannot compile in time fails closed', () => {
    const matchers = createRuleMatchers();
    const rules = [rule('a', '1', ['cat*'])];
    // The budget is spent at its first reading: the rule is not compiled, it is taken to match.
    expect(check(matchers, rules, 100)).toEqual({
      compiled: 1,
      results: [expect.objectContaining({ timedOut: true })],
    });
    // Within the budget it is compiled, checked, and kept compiled for the next message.
    expect(check(matchers, rules, 0)).toEqual({ compiled: 1, results: [null] });
    expect(check(matchers, rules, 0)).toEqual({ compiled: 0, results: [null] });
  });

  it("keeps a guild's rules whole; compiling again after another guild's turn is counted", () => {
    // Room for about two guilds' rules of this size.
    const matchers = createRuleMatchers(150_000);
    const guild = (id: string) => [rule(id, `${id}1`, infixList(id))];
    const victim = [...guild('v'), rule('v', 'v2', ['dog'])];
    expect(check(matchers, victim, 0).compiled).toBe(2);
    // One other guild fits beside it: the victim's rules stay compiled.
    check(matchers, guild('x'), 0);
    expect(check(matchers, victim, 0).compiled).toBe(0);
    // Guilds taking turns push it out; its next check compiles again, within its budget: a
    // spent budget makes the rules fail closed instead of compiling uncounted.
    check(matchers, guild('y'), 0);
    check(matchers, guild('z'), 0);
    const evicted = check(matchers, victim, 100);
    expect(evicted.compiled).toBe(2);
    expect(evicted.results.every((r) => r?.timedOut === true)).toBe(true);
    expect(check(matchers, victim, 0).compiled).toBe(2);
  });

  it('judges compiling at save time: a rule too costly to compile within the budget', () => {
    const heavy = { keyword_filter: infixList('h') };
    // About 60,000 characters of infix keywords: milliseconds to compile, not the 0.6 ms of
    // checking them alone.
    expect(compileCostMs(heavy)).toBeGreaterThan(20);
    expect(ruleCostMs({ triggerType: 1, triggerMetadata: heavy }, 2000)).toBeGreaterThan(20);
    expect(compileCostMs({ keyword_filter: ['cat*'] })).toBeLessThan(0.01);
  });
});
