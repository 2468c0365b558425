/**
 * Guildhall's app and configuration for a bench, loaded the way its executable loads them
 * (packages/server/src/main.ts): Node's tick objects' shape held first (src/tickShape.ts), the
 * rest after it, so a bench measures what `npm start` runs. A bench imports the app from here,
 * never from dist/app.js directly: a static import would load the whole app before the shape is
 * held.
 */
import '../../packages/server/dist/tickShape.js';

export const { createApp } = await import('../../packages/server/dist/app.js');
export const { loadConfig } = await import('../../packages/server/dist/config.js');
