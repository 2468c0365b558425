/**
 * @module resources/appData: an application's own data: its emojis, its role connection
 * metadata and its users' role connections, activity attachments, and guild membership
 * through OAuth2 (guilds.join, guilds.members.read).
 */
import type { ServiceDeps } from '../deps.js';
import type { AttachmentLinks } from '../messages/index.js';
import { createAppAttachmentService } from './attachments.js';
import { createApplicationEmojiService } from './emojis.js';
import { createOAuthMemberService } from './members.js';
import { createRoleConnectionService } from './roleConnections.js';

export { registerAppAttachmentCdnRoutes } from './attachments.js';
export { registerAppDataRoutes, type AppDataServices } from './routes.js';

export function createAppDataServices(deps: ServiceDeps & { links: () => AttachmentLinks }) {
  return {
    emojis: createApplicationEmojiService(deps),
    roleConnections: createRoleConnectionService(deps),
    members: createOAuthMemberService(deps),
    attachments: createAppAttachmentService(deps),
  };
}
