/**
 * The Node build: `ws` for the gateway, a loopback HTTP listener for the authorize redirect, and
 * launch registration through the desktop's URL handlers.
 *
 * @module
 */
import { setDefaultPlatform } from './platform.js';
import { nodePlatform } from './platform/node.js';

setDefaultPlatform(nodePlatform());

export * from './index.js';
