/**
 * @module resources/auditLog/module: the audit log as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { registerAuditLogRoutes } from './routes.js';
import { createAuditLogService } from './service.js';

const services = (root: { deps: ServiceDeps }) => ({ auditLog: createAuditLogService(root.deps) });

export const auditLogModule = resourceModule({
  name: 'auditLog',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerAuditLogRoutes(api, ctx.services.auditLog);
  },
});
