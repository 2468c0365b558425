/**
 * Guildhall's app and configuration for a bench, loaded the way its executable loads them
 * (packages/server/src/main.ts): Node's tick objects' shape held first (src/tickShape.ts), the
 * rest after it, so a bench measures what `npm start` runs. A bench that serves requests imports
 * the app from here, not from dist/app.js: a static import would load the whole app before the
 * shape is held.
 */
import '../../packages/server/dist/tickShape.js';

export const { createApp } = await import('../../packages/server/dist/app.js');
export const { loadConfig } = await import('../../packages/server/dist/config.js');
