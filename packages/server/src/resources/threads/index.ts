/** @module resources/threads: threads, their members, lists and forum tags (docs/threads.md). */
export { threadPermissionsOf } from './access.js';
export { threadDispatches } from './events.js';
export { createThreadListService, visibleThreads, type ThreadListService } from './lists.js';
export { createThreadMemberService, type ThreadMemberService } from './members.js';
export {
  registerThreadRoutes,
  threadChannelRoutes,
  type ThreadChannelRoutes,
  type ThreadRouteServices,
} from './routes.js';
export { THREAD_LIMITS, THREAD_TYPES, isPrivateThread, isThreadType } from './rules.js';
export { serializeThread, serializeThreadMember, type ThreadWire } from './serialize.js';
export { createThreadService, type ThreadService } from './service.js';
export { startTimedSweeper, type TimedSweeper } from './sweep.js';
export { threadsModule } from './module.js';
