/** Statistics the benchmarks share. */

/**
 * The p-th percentile (0–100) of ascending `sorted` samples, by the nearest-rank method; NaN for
 * no samples.
 */
export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}
