/**
 * One member of a group commit batch (groupCommit.ts): its turn, the repositories it sees during
 * it, and its outcome.
 */
import { clearTimeout, setTimeout } from 'node:timers';
import { GroupCommitTimeoutError } from '../errors.js';
import type { Repositories } from '../types/storage.js';

/** A queued member: its function and the caller's promise. */
export interface Member {
  fn: (tx: Repositories) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (err: unknown) => void;
  /** Set when a neighbour's failure rolled back its first run: it runs again, in a savepoint. */
  retry: boolean;
}

export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/**
 * What a member may still do: its repositories work while its turn lasts, and the batch waits for
 * the calls it started before moving on.
 */
class MemberTurn {
  #open = true;
  #inFlight = 0;
  #idle: (() => void) | null = null;

  /** Runs one repository call, or refuses it once the turn is over. */
  call(run: () => unknown): unknown {
    if (!this.#open) return Promise.reject(new GroupCommitTimeoutError());
    const result = run();
    if (!(result instanceof Promise)) return result;
    this.#inFlight += 1;
    const settled = () => {
      this.#inFlight -= 1;
      if (this.#inFlight === 0) this.#idle?.();
    };
    result.then(settled, settled);
    return result;
  }

  /** Ends the turn; resolves once no call of the member is still running on the connection. */
  end(): Promise<void> {
    this.#open = false;
    if (this.#inFlight === 0) return Promise.resolve();
    return new Promise((resolve) => {
      this.#idle = resolve;
    });
  }
}

/** One repository seen through a member's turn: every method call goes through `turn.call`. */
function guardRepository(repository: object, turn: MemberTurn): object {
  return new Proxy(repository, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'function') return value;
      return (...args: unknown[]) => turn.call(() => Reflect.apply(value, target, args));
    },
  });
}

/**
 * A member's own repositories, whose calls stop working when the member's turn ends. Each
 * repository is wrapped when first used. The commit scope is not a repository (it holds no
 * connection) and is left as it is.
 */
function memberRepositories(batch: Repositories, turn: MemberTurn): Repositories {
  const guarded = new Map<PropertyKey, object>();
  return new Proxy(batch, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== 'object' || value === null || property === 'commit') return value;
      let repository = guarded.get(property);
      if (repository === undefined) {
        repository = guardRepository(value, turn);
        guarded.set(property, repository);
      }
      return repository;
    },
  });
}

/**
 * Runs `member` on the batch's repositories until it settles or `timeoutMs` passes (then it
 * fails with a `GroupCommitTimeoutError`), and resolves once nothing it started still runs.
 */
export async function runTurn(
  member: Member,
  batch: Repositories,
  timeoutMs: number,
): Promise<Outcome> {
  const turn = new MemberTurn();
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => {
      resolve({ ok: false, error: new GroupCommitTimeoutError() });
    }, timeoutMs);
  });
  // A member that throws instead of rejecting fails the same way.
  const running = (async () => member.fn(memberRepositories(batch, turn)))();
  const outcome = await Promise.race([
    running.then(
      (value): Outcome => ({ ok: true, value }),
      (error: unknown): Outcome => ({ ok: false, error }),
    ),
    expired,
  ]);
  clearTimeout(timer);
  await turn.end();
  return outcome;
}
