/** The first field error of a 50035 thrown by a validator, for unit tests of request rules. */
import { expect } from 'vitest';
import { ApiError } from '../../src/errors/index.js';

/** The one error leaf of a 50035: its dotted path and code. */
export function failure(run: () => unknown): { path: string; code: string } {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    const error = err as ApiError;
    expect(error.code).toBe(50035);
    const path: string[] = [];
    let node = error.errors as Record<string, unknown>;
    for (;;) {
      const leaf = node['_errors'] as { code: string }[] | undefined;
      if (leaf !== undefined) return { path: path.join('.'), code: leaf[0]?.code ?? '' };
      const [key] = Object.keys(node);
      if (key === undefined) throw new Error('empty error tree');
      path.push(key);
      node = node[key] as Record<string, unknown>;
    }
  }
  throw new Error('expected a 50035');
}
