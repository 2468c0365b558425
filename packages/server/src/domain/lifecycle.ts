/**
 * @module domain/lifecycle: the start and stop of a running app's parts. The composition root
 * adds each part as it builds it, so a part is always added after what it is built from; `start`
 * starts them in that order, and `close` stops them in the reverse order, as Fastify's `onClose`
 * hooks run: the gateway before the bus, every worker before the storage. A stop that fails is
 * reported and the others still run; `close` rejects once all have run.
 */

/** A part of the app that runs between its start and its stop. */
export interface Component {
  /** Names the part in a failed stop's report. */
  readonly name: string;
  /** Starts it (timers, listeners, subscriptions); absent: it runs once built. */
  start?(): void | Promise<void>;
  /** Stops it; absent: it holds nothing to let go of. */
  stop?(): void | Promise<void>;
}

export interface Lifecycle {
  /**
   * Adds a part. One without `start` runs from now on (a storage opened, a listener made); one
   * with `start` runs once {@link Lifecycle.start} has started it.
   */
  add(component: Component): void;
  /**
   * Starts the parts added since the last call, in the order they were added, each once it
   * resolved the one before. A start that fails rejects, and the parts after it stay unstarted.
   */
  start(): Promise<void>;
  /**
   * Stops every running part, the last added first, each once. Rejects after the last stop with
   * the failure (an `AggregateError` of them when several failed). Calling it again returns the
   * same promise; nothing may be added afterwards.
   */
  close(): Promise<void>;
}

/** `onStopError` hears of each stop that fails, as it fails (a log line). */
export function createLifecycle(
  onStopError: (err: unknown, name: string) => void = () => undefined,
): Lifecycle {
  const parts: { component: Component; running: boolean }[] = [];
  let started = 0;
  let closed: Promise<void> | null = null;

  const stopAll = async () => {
    const failures: unknown[] = [];
    for (const { component, running } of parts.splice(0).reverse()) {
      if (!running || component.stop === undefined) continue;
      try {
        await component.stop();
      } catch (err) {
        onStopError(err, component.name);
        failures.push(err);
      }
    }
    if (failures.length === 1) throw failures[0];
    if (failures.length > 1) throw new AggregateError(failures, 'several parts failed to stop');
  };

  return {
    add(component) {
      if (closed !== null) throw new Error(`${component.name} was added after the app closed`);
      parts.push({ component, running: component.start === undefined });
    },
    async start() {
      while (started < parts.length && closed === null) {
        const part = parts[started++];
        if (part === undefined || part.running) continue;
        await part.component.start?.();
        part.running = true;
      }
    },
    close() {
      closed ??= stopAll();
      return closed;
    },
  };
}
