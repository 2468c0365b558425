/**
 * The Node environment of the test workers, which closes the worker's shared test servers
 * (serverPool.ts) when the worker stops: vitest runs an environment's teardown at a worker's
 * end, and kills the process once it returns. Vitest loads this module apart from the test
 * files, so it finds the pool's close through a global registered by serverPool.ts (absent in a
 * worker that never shared a server).
 *
 * @module
 */
import { builtinEnvironments, type Environment } from 'vitest/runtime';

const CLOSE_POOLED_SERVERS = Symbol.for('guildhall.test.closePooledServers');

const environment: Environment = {
  name: 'guildhall-node',
  viteEnvironment: 'ssr',
  async setup(global, options) {
    const node = await builtinEnvironments.node.setup(global, options);
    return {
      async teardown(ended) {
        const close = (globalThis as Record<symbol, unknown>)[CLOSE_POOLED_SERVERS];
        if (typeof close === 'function') await (close as () => Promise<void>)();
        await node.teardown(ended);
      },
    };
  },
};

export default environment;
