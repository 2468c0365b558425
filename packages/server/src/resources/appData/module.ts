/**
 * @module resources/appData/module: an application's own data: emojis, role connections, members,
 * attachments as the composition root plugs it in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import type { AttachmentLinks } from '../messages/index.js';
import { createAppAttachmentService } from './attachments.js';
import { createApplicationEmojiService } from './emojis.js';
import { createOAuthMemberService } from './members.js';
import { createRoleConnectionService } from './roleConnections.js';
import { resourceModule } from '../module.js';
import { registerAppAttachmentCdnRoutes } from './attachments.js';
import { registerAppDataRoutes } from './routes.js';

export function createAppDataServices(deps: ServiceDeps & { links: () => AttachmentLinks }) {
  return {
    emojis: createApplicationEmojiService(deps),
    roleConnections: createRoleConnectionService(deps),
    members: createOAuthMemberService(deps),
    attachments: createAppAttachmentService(deps),
  };
}

const services = (root: { deps: ServiceDeps; links: () => AttachmentLinks }) => ({
  appData: createAppDataServices({ ...root.deps, links: root.links }),
});

export const appDataModule = resourceModule({
  name: 'appData',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services>; maxAttachmentBytes: number }) => {
    registerAppDataRoutes(api, ctx.services.appData, {
      maxAttachmentBytes: ctx.maxAttachmentBytes,
    });
  },
  rootRoutes: (http, ctx: Parameters<typeof registerAppAttachmentCdnRoutes>[1]) => {
    registerAppAttachmentCdnRoutes(http, ctx);
  },
});
