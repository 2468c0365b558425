/**
 * @module resources/threads/module: threads as the composition root plugs it in
 * (resources/module.ts).
 */
import type { ServiceDeps } from '../deps.js';
import { resourceModule } from '../module.js';
import { createThreadListService } from './lists.js';
import { createThreadMemberService } from './members.js';
import { registerThreadRoutes, threadChannelRoutes } from './routes.js';
import { createThreadService } from './service.js';
import type { ThreadServiceDeps } from './shared.js';

// Forum posts post their first message through messages, listed after threads: read at call time.
const services = (
  root: { deps: ServiceDeps },
  _made: unknown,
  later: () => { messages: ReturnType<ThreadServiceDeps['messages']> },
) => {
  const threads = createThreadService({ ...root.deps, messages: () => later().messages });
  return {
    threads,
    threadMembers: createThreadMemberService(root.deps),
    threadLists: createThreadListService(root.deps),
    threadChannels: threadChannelRoutes(root.deps.storage, threads),
  };
};

export const threadsModule = resourceModule({
  name: 'threads',
  services,
  routes: (api, ctx: { services: ReturnType<typeof services> }) => {
    registerThreadRoutes(api, ctx.services);
  },
});
