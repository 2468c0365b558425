/**
 * @module control/worldState: the worlds a server has loaded and the point a reset returns to,
 * one per App (App.worlds), so the test kit and the HTTP controls agree.
 */
import type { App } from '../appTypes.js';
import type { AppSnapshot } from './reset.js';
import { loadWorld } from './world.js';
import type { LoadedWorld, WorldState } from './worldTypes.js';

/** The world state of `app()` (a getter: the App is built after it). */
export function createWorldState(app: () => App): WorldState {
  let loaded: LoadedWorld[] = [];
  let point: { snapshot: AppSnapshot; worlds: LoadedWorld[] } | null = null;
  // One change at a time: a reset never runs while a world is half loaded.
  let queue: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: () => Promise<T>): Promise<T> => {
    const run = queue.then(work, work);
    queue = run.catch(() => undefined);
    return run;
  };
  const mark = async () => {
    point = { snapshot: await app().snapshot(), worlds: [...loaded] };
  };
  return {
    load: (world, options) =>
      inTurn(async () => {
        const made = await loadWorld(app(), world, options);
        loaded = [...loaded, made];
        await mark();
        return made;
      }),
    mark: () => inTurn(mark),
    reset: () =>
      inTurn(async () => {
        if (point === null) {
          await mark();
          return;
        }
        await point.snapshot.restore();
        loaded = [...point.worlds];
      }),
    loaded: () => loaded,
    adopt: (world) =>
      inTurn(async () => {
        loaded = [...loaded, world];
        await mark();
      }),
  };
}
