/** @module resources/invites: the public surface of invites. */
export { registerInviteRoutes } from './routes.js';
export { createInviteService } from './service.js';
export { issueInvite } from './issue.js';
export { CreateInviteBody } from './schemas.js';
export { invitesModule } from './module.js';
