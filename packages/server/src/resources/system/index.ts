/** @module resources/system: health, readiness, metrics and the image paths. */
export { createMetrics, createMetricsListener, instrument } from './metrics.js';
export { registerSystemRoutes } from './routes.js';
export { systemModule } from './module.js';
