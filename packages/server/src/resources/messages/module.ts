/**
 * @module resources/messages/module: messages, reactions and pins as the composition root plugs it
 * in (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { createPinService } from './pins.js';
import { createReactionService } from './reactions.js';
import { registerAttachmentCdnRoutes, registerMessageRoutes } from './routes.js';
import { createMessageService } from './service.js';
import type { AttachmentLinks } from './serialize.js';
import type { MessageServiceOptions } from './shared.js';

type Uploads = Parameters<typeof registerMessageRoutes>[2];

const services = (
  root: { deps: ServiceDeps; links: () => AttachmentLinks },
  made: {
    /** The rules of DMs and group DMs (resources/dms). */
    privateRules: NonNullable<MessageServiceOptions['privateRules']>;
    /** The rules of threads (resources/threads). */
    threads: NonNullable<MessageServiceOptions['threadRules']>;
    /** Auto-moderation of guild messages (resources/autoModeration). */
    autoModeration: NonNullable<MessageServiceOptions['moderation']>;
  },
) => ({
  messages: createMessageService(root.deps, {
    links: root.links,
    privateRules: made.privateRules,
    threadRules: made.threads,
    moderation: made.autoModeration,
  }),
  reactions: createReactionService(root.deps),
  pins: createPinService(root.deps, { links: root.links }),
});

export const messagesModule = resourceModule({
  name: 'messages',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services>; uploads: Uploads }) => {
    registerMessageRoutes(api, ctx.services, ctx.uploads);
  },
  rootRoutes: (http, ctx: Parameters<typeof registerAttachmentCdnRoutes>[1]) => {
    registerAttachmentCdnRoutes(http, ctx);
  },
});
