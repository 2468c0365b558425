/**
 * The browser build: the page's WebSocket and fetch, the authorize popup, links opened in a new
 * tab. No Node module is reachable from here (the bundle's build fails if one is).
 *
 * @module
 */
import { setDefaultPlatform } from './platform.js';
import { browserPlatform } from './platform/browser.js';

setDefaultPlatform(browserPlatform());

export * from './index.js';
export { completeAuthorize } from './platform/browser.js';
