/** @module resources/members: the public surface of guild members. */
export { assertAboveMember } from './hierarchy.js';
export { createPruneService } from './prune.js';
export { registerMemberRoutes } from './routes.js';
export { serializeMember, serializePartialMember, type MemberWire } from './serialize.js';
export { createMemberService, type MemberRequest } from './service.js';
export type { ProfileCheck } from './profile.js';
export { memberDispatches } from './dispatch.js';
export { ModifyMemberBody } from './schemas.js';
export { membersModule } from './module.js';
