/** @module activities: embedded activities' config, instances and routes (docs/activities.md). */
export {
  ACTIVITY_PLATFORMS,
  MAX_URL_MAPPINGS,
  OrientationLockStates,
  createActivityConfigService,
  hasActivity,
  hasRootMapping,
  targetUrl,
  type ActivityConfigService,
} from './config.js';
export {
  EMBEDDED_ACTIVITY_UPDATE,
  createActivityInstanceService,
  requireLaunchable,
  type ActivityInstanceService,
} from './instances.js';
export { registerActivityRoutes } from './routes.js';
