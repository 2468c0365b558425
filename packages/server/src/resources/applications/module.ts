/**
 * @module resources/applications/module: applications as the composition root plugs it in
 * (resources/module.ts).
 */
import { resourceModule } from '../module.js';
import { registerAssetCdnRoutes } from './assets.js';
import { registerApplicationRoutes } from './routes.js';
import { createApplicationService } from './service.js';

type ApplicationDeps = Parameters<typeof createApplicationService>[0];

const services = (
  root: {
    deps: Omit<ApplicationDeps, 'interactionsEndpoint' | 'privilegedIntentReviewThreshold'>;
    privilegedIntentReviewThreshold: number;
  },
  made: { interactionsEndpoint: ApplicationDeps['interactionsEndpoint'] },
) => ({
  applications: createApplicationService({
    ...root.deps,
    interactionsEndpoint: made.interactionsEndpoint,
    privilegedIntentReviewThreshold: root.privilegedIntentReviewThreshold,
  }),
});

export const applicationsModule = resourceModule({
  name: 'applications',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerApplicationRoutes(api, ctx.services.applications);
  },
  rootRoutes: (http, ctx: Parameters<typeof registerAssetCdnRoutes>[1]) => {
    registerAssetCdnRoutes(http, ctx);
  },
});
