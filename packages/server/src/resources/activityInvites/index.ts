export { registerActivityInviteRoutes } from './routes.js';
export {
  createActivityInviteService,
  type ActivityInvitePorts,
  type ActivityInviteService,
} from './service.js';
export { activityInvitesModule } from './module.js';
