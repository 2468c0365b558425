/**
 * @module resources/socialLimits/module: the Social SDK's limits and their approval as the
 * composition root plugs it in (resources/module.ts).
 */
import { resourceModule } from '../module.js';
import { SOCIAL_COMMANDS } from './approval.js';
import { registerSocialApprovalRoutes } from './routes.js';

export const socialLimitsModule = resourceModule({
  name: 'socialLimits',
  services: () => ({}),
  routes: (api, ctx: Parameters<typeof registerSocialApprovalRoutes>[1]) => {
    registerSocialApprovalRoutes(api, ctx);
  },
  commands: SOCIAL_COMMANDS,
});
