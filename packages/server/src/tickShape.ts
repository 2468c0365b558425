/**
 * @module tickShape: keeps V8's hidden classes of Node's `process.nextTick` objects alive for the
 * process's life.
 *
 * Each `process.nextTick` call builds a small object with a literal of two symbol keys (Node's
 * async id and trigger id), `callback` and `args`. V8 holds the hidden classes ("maps") that
 * literal goes through only weakly; tick objects live for microseconds, so a full garbage
 * collection that finds none alive frees those maps, and the next tick builds new ones. The
 * literal's inline caches, having seen one map and then another, turn megamorphic for good, and
 * from then on every tick defines its four properties through V8's runtime instead of the
 * optimized code. Loaded from its compiled modules (dist/, as the benches and the tests load
 * it), this server's start made such a collection every time it was checked, and the slow ticks
 * cost about 5 µs of every HTTP request (`perf` samples under
 * `Runtime_DefineKeyedOwnPropertyInLiteral`, docs/benchmarks.md "Node's tick objects").
 *
 * One object of the same shape, held here, keeps those maps alive. It must exist before the
 * collections of the start, which come while the app's modules load: the executable (main.ts)
 * imports this module alone and loads the rest after it; app.ts imports it first for programs
 * that import the app directly, where it helps only if they load it the same way. Where the
 * shape cannot be built (Node 22 and later, below), nothing is held and nothing changes.
 */

import { AsyncResource } from 'node:async_hooks';

/**
 * The two symbols Node's tick objects carry, found on an async resource; null where they carry
 * more: from Node 22 on, an async context frame under a symbol private to Node's task queue
 * (timers carry one of the same name, but another symbol), so their shape cannot be built.
 */
function tickSymbols(): { asyncId: symbol; triggerId: symbol } | null {
  const timer = setTimeout(() => undefined, 0);
  clearTimeout(timer);
  const named = (symbols: symbol[], name: string) =>
    symbols.find((symbol) => symbol.description === name);
  if (named(Object.getOwnPropertySymbols(timer), 'kAsyncContextFrame') !== undefined) return null;
  const resource = Object.getOwnPropertySymbols(new AsyncResource('guildhall.tickShape'));
  const asyncId = named(resource, 'async_id_symbol');
  const triggerId = named(resource, 'trigger_async_id_symbol');
  return asyncId === undefined || triggerId === undefined ? null : { asyncId, triggerId };
}

/**
 * An object built like Node's tick objects (lib/internal/process/task_queues.js, `nextTick`):
 * the same literal form, so V8 gives it the same maps. Small integers, as Node's ids are.
 */
function tickShapedObject(): object | null {
  const symbols = tickSymbols();
  if (symbols === null) return null;
  const callback = () => undefined;
  const args: unknown[] | undefined = undefined;
  return { [symbols.asyncId]: 1, [symbols.triggerId]: 1, callback, args };
}

/** Held for the process's life (module state is never collected). */
export const heldTickShape = tickShapedObject();
