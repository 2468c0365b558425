/** @module resources/scheduledEvents: the public surface of guild scheduled events. */
export { registerScheduledEventCdnRoutes, registerScheduledEventRoutes } from './routes.js';
export { serializeScheduledEvent, type ScheduledEventWire } from './serialize.js';
export { createScheduledEventService } from './service.js';
export { scheduledEventsModule } from './module.js';
