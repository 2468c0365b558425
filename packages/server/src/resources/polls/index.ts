/** @module resources/polls: poll voters, votes and their end (docs/polls.md). */
export { registerPollRoutes } from './routes.js';
export { createPollService, type PollService } from './service.js';
export { pollsModule } from './module.js';
