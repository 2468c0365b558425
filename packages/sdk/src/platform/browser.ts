/**
 * The browser platform: the page's WebSocket, links in a new tab, the authorize popup.
 *
 * @module
 */
import type { Platform } from '../platform.js';

export function browserPlatform(): Platform {
  return {
    name: 'browser',
    WebSocket: globalThis.WebSocket,
    openUrl: (url) => {
      globalThis.open(url, '_blank', 'noopener');
      return Promise.resolve();
    },
    authorizeRedirect: () =>
      Promise.reject(new Error('authorize: the popup flow is being written')),
    registerLaunch: (_applicationId, _command, logger) => {
      logger.warn('A browser cannot register a launch command.');
      return Promise.resolve(false);
    },
  };
}

/** Called by the redirect page of an authorize popup. */
export function completeAuthorize(): void {
  throw new Error('completeAuthorize: being written');
}
