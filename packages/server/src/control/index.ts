/**
 * @module control: a running platform's test controls (docs/testing.md): the platform clock, the
 * faults injected on purpose, the log of what each bot did and was sent, and their HTTP face
 * under `/_guildhall/v1/`. Only the composition root imports this folder.
 */
import type { Clock, Timers } from '../domain/clock.js';
import { createPlatformClock } from './clock.js';
import { createFaultRegistry, type FaultRegistry } from './faults.js';
import { createControlLog, type ControlLogWriter } from './log.js';
import type { Control, PlatformClock } from './types.js';

export type * from './types.js';
export { ControlInputError, durationMs, instantMs } from './duration.js';
export { createPlatformClock } from './clock.js';
export type { FaultRegistry, FaultSubject, FaultPorts } from './faults.js';
export type { ControlLogWriter, LogRecord } from './log.js';

/** The controls as the platform's parts see them: the writers behind `app.control`. */
export interface ControlParts extends Control {
  readonly clock: PlatformClock;
  readonly faults: FaultRegistry;
  readonly log: ControlLogWriter;
  /** Whether the log records (the controls are on); off, it stays empty and costs nothing. */
  readonly recording: boolean;
}

export function createControl(deps: {
  /** The real clock the platform clock runs with (tests pass their own). */
  base?: Clock;
  /** The real timers its waits are armed on. */
  baseTimers?: Timers;
  /** Whether the log records. */
  recording: boolean;
  /** Entries kept per user in the log. */
  logCapacity?: number;
  onError?: (err: unknown) => void;
}): ControlParts {
  const clock = createPlatformClock({
    ...(deps.base ? { base: deps.base } : {}),
    ...(deps.baseTimers ? { baseTimers: deps.baseTimers } : {}),
    ...(deps.onError ? { onError: deps.onError } : {}),
  });
  return {
    clock,
    faults: createFaultRegistry({ clock }),
    log: createControlLog({
      clock,
      ...(deps.logCapacity === undefined ? {} : { capacity: deps.logCapacity }),
    }),
    recording: deps.recording,
  };
}
