/**
 * Readiness: whether this process can serve requests now, as opposed to liveness (it runs). Each
 * dependency is one named check; a new one (a shared Redis store, say) is one more entry in the
 * list app.ts passes, and /readyz reports it by name.
 */
export interface ReadinessCheck {
  /** The name /readyz reports: `database`, `bus`, … */
  name: string;
  /** Resolves when the dependency answers; rejects (or exceeds the timeout) when it does not. */
  check(): Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  /** Every check by name: `ok` or `unavailable`. */
  checks: Record<string, 'ok' | 'unavailable'>;
  /** The names of the checks that failed, in list order. */
  failed: string[];
}

/** How long one check may take before it counts as failed. */
export const DEFAULT_READINESS_TIMEOUT_MS = 2000;

function withTimeout(promise: Promise<void>, timeoutMs: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      reject(new Error(`no answer within ${timeoutMs} ms`));
    }, timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => {
    clearTimeout(timer);
  });
}

/** Runs every check at once; `onFailure` hears why each failed one did (for the log). */
export async function checkReadiness(
  checks: readonly ReadinessCheck[],
  options: { timeoutMs: number; onFailure(name: string, err: unknown): void },
): Promise<ReadinessReport> {
  const results = await Promise.allSettled(
    checks.map((c) =>
      withTimeout(
        Promise.resolve().then(() => c.check()),
        options.timeoutMs,
      ),
    ),
  );
  const report: ReadinessReport = { ready: true, checks: {}, failed: [] };
  results.forEach((result, i) => {
    const name = checks[i]?.name ?? String(i);
    if (result.status === 'fulfilled') {
      report.checks[name] = 'ok';
      return;
    }
    report.ready = false;
    report.checks[name] = 'unavailable';
    report.failed.push(name);
    options.onFailure(name, result.reason);
  });
  return report;
}
