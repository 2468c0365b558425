import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkReadiness } from './readiness.js';

describe('checkReadiness', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('names each failed check; a new dependency is one more entry', async () => {
    const failures: string[] = [];
    const report = await checkReadiness(
      [
        { name: 'database', check: () => Promise.resolve() },
        { name: 'bus', check: () => Promise.resolve() },
        { name: 'redis', check: () => Promise.reject(new Error('ECONNREFUSED')) },
      ],
      { timeoutMs: 1000, onFailure: (name) => failures.push(name) },
    );
    expect(report).toEqual({
      ready: false,
      checks: { database: 'ok', bus: 'ok', redis: 'unavailable' },
      failed: ['redis'],
    });
    expect(failures).toEqual(['redis']);
  });

  it('counts a check that never answers as failed once the timeout passes', async () => {
    vi.useFakeTimers();
    const pending = checkReadiness(
      [
        { name: 'database', check: () => Promise.resolve() },
        { name: 'bus', check: () => new Promise<void>(() => undefined) },
      ],
      { timeoutMs: 2000, onFailure: () => undefined },
    );
    await vi.advanceTimersByTimeAsync(2000);
    expect(await pending).toMatchObject({ ready: false, failed: ['bus'] });
  });

  it('is ready when every check answers, and a throwing check counts as failed', async () => {
    const ok = await checkReadiness([{ name: 'database', check: () => Promise.resolve() }], {
      timeoutMs: 1000,
      onFailure: () => undefined,
    });
    expect(ok).toEqual({ ready: true, checks: { database: 'ok' }, failed: [] });
    const thrown = await checkReadiness(
      [
        {
          name: 'bus',
          check: () => {
            throw new Error('closed');
          },
        },
      ],
      { timeoutMs: 1000, onFailure: () => undefined },
    );
    expect(thrown.failed).toEqual(['bus']);
  });
});
