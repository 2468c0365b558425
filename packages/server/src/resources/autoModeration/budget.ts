/**
 * @module resources/autoModeration/budget: the CPU time the rules of one message (or of one
 * member's names) may take together. The matchers check it as they go; past it, what is left
 * unchecked fails closed (enforce.ts).
 */

/** Thrown by {@link Budget.check} once the time is spent. */
export class OutOfBudget extends Error {
  override readonly name = 'OutOfBudget';
  constructor() {
    super('The auto-moderation budget of this check is spent.');
  }
}

/** The time left to one check. */
export interface Budget {
  /** @throws OutOfBudget once the time is spent (and at every call after). */
  check(): void;
}

/** Where a budget's time comes from: milliseconds, only ever growing. */
export type Stopwatch = () => number;

/** The CPU budget of one check and where its time comes from. */
export interface BudgetClocks {
  /** The time the rules of one message (or one member's names) may take together. */
  budgetMs: number;
  /** Wall-clock time (`performance.now`). */
  wallClock: Stopwatch;
  /**
   * The process's CPU time. The budget is spent when both have run past it: wall-clock time
   * alone also counts time the process was not running (another process had the core), CPU
   * time alone also counts other threads' work (hashing, the garbage collector).
   */
  cpuClock: Stopwatch;
}

/** A budget of `clocks.budgetMs` from now. */
export function startBudget(clocks: BudgetClocks): Budget {
  const { budgetMs, wallClock, cpuClock } = clocks;
  const wallStart = wallClock();
  const cpuStart = cpuClock();
  let spent = false;
  return {
    check() {
      // The CPU time is read only once the wall-clock time is past the budget.
      spent ||= wallClock() - wallStart > budgetMs && cpuClock() - cpuStart > budgetMs;
      if (spent) throw new OutOfBudget();
    },
  };
}
