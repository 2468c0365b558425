import { makeSnowflake, type Snowflake } from '@guildhall/protocol';
import type { Clock } from './clock.js';

export interface SnowflakeGeneratorOptions {
  clock: Clock;
  /** 0–31, unique per process that writes to the same database (GUILDHALL_WORKER_ID). */
  workerId: number;
  /** 0–31; a second axis for processes on one worker. */
  processId?: number;
}

/** Makes a new id on each call. */
export type IdGenerator = () => Snowflake;

const MAX_INCREMENT = 0xfff;

/**
 * Ids are unique across processes that differ in worker or process id, and strictly increasing
 * within one process: when the clock stands still or steps back, the last timestamp is reused, and
 * after 4096 ids in one millisecond the timestamp moves on by one.
 */
export function createSnowflakeGenerator(options: SnowflakeGeneratorOptions): IdGenerator {
  const { clock, workerId, processId = 0 } = options;
  let lastMs = -1;
  let increment = 0;
  return () => {
    const now = clock.now();
    if (now > lastMs) {
      lastMs = now;
      increment = 0;
    } else if (increment < MAX_INCREMENT) {
      increment += 1;
    } else {
      lastMs += 1;
      increment = 0;
    }
    return makeSnowflake({ timestampMs: lastMs, workerId, processId, increment });
  };
}
