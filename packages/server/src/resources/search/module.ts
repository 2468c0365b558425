/**
 * @module resources/search/module: message search as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerMessageSearchRoutes } from './routes.js';
import { createMessageSearchService } from './service.js';

type SearchOptions = Parameters<typeof createMessageSearchService>[1];

const services = (root: {
  deps: ServiceDeps;
  links: SearchOptions['links'];
  searchIndexer: SearchOptions['indexer'];
}) => ({
  messageSearch: createMessageSearchService(root.deps, {
    links: root.links,
    indexer: root.searchIndexer,
  }),
});

export const searchModule = resourceModule({
  name: 'search',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerMessageSearchRoutes(api, ctx.services.messageSearch);
  },
});
