/**
 * The Node platform: `ws` for the gateway, a loopback listener for the authorize redirect.
 *
 * @module
 */
import WebSocket from 'ws';
import type { WebSocketConstructor } from '../gateway.js';
import type { Platform } from '../platform.js';

export function nodePlatform(): Platform {
  return {
    name: 'node',
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    openUrl: (url, logger) => {
      logger.info(`Open this address in a browser: ${url}`);
      return Promise.resolve();
    },
    authorizeRedirect: () =>
      Promise.reject(new Error('authorize: the loopback flow is being written')),
    registerLaunch: () => Promise.resolve(false),
  };
}
