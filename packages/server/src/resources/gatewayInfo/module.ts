/**
 * @module resources/gatewayInfo/module: GET /gateway and /gateway/bot as the composition root
 * plugs it in (resources/module.ts).
 */
import { resourceModule } from '../module.js';
import { registerGatewayRoutes } from './routes.js';

export const gatewayInfoModule = resourceModule({
  name: 'gatewayInfo',
  services: () => ({}),
  routes: (api, ctx: Parameters<typeof registerGatewayRoutes>[1]) => {
    registerGatewayRoutes(api, ctx);
  },
});
