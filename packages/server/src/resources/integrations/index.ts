/**
 * @module resources/integrations: a guild's integrations are the applications whose bot it
 * added. Their wire object and the INTEGRATION_* dispatches every path that adds, changes or
 * removes one announces (a bot added, an application changed, a bot gone by any route).
 */
export {
  announceBotLeft,
  announceIntegrationCreate,
  announceIntegrationDelete,
  announceIntegrationUpdates,
} from './dispatch.js';
export { serializeIntegration, type IntegrationWire } from './serialize.js';
