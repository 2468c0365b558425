/**
 * A benchmark child's view of its own event loop while it serves: how late the loop ran
 * (perf_hooks.monitorEventLoopDelay, 1 ms resolution) and the garbage collector's pauses. Start
 * it when serving starts; `report()` gives milliseconds.
 */
import { PerformanceObserver, monitorEventLoopDelay } from 'node:perf_hooks';
import process from 'node:process';

export function watchLoop() {
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const gc = { count: 0, totalMs: 0, maxMs: 0 };
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      gc.count += 1;
      gc.totalMs += entry.duration;
      gc.maxMs = Math.max(gc.maxMs, entry.duration);
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  return {
    /** Resets the counts (after a warm-up). */
    reset() {
      delay.reset();
      Object.assign(gc, { count: 0, totalMs: 0, maxMs: 0 });
    },
    report() {
      return {
        loopDelayP99Ms: delay.percentile(99) / 1e6,
        loopDelayMaxMs: delay.max / 1e6,
        gcPauses: gc.count,
        gcTotalMs: Math.round(gc.totalMs * 10) / 10,
        gcMaxMs: Math.round(gc.maxMs * 100) / 100,
      };
    },
  };
}

/**
 * watchLoop in a bench child: its figures start at the parent's first CPU question, which marks
 * the end of the warm-up.
 */
export function watchLoopAfterWarmup() {
  const loop = watchLoop();
  let warm = false;
  process.on('message', (message) => {
    if (message?.type === 'cpu' && !warm) {
      warm = true;
      loop.reset();
    }
  });
  return loop;
}
