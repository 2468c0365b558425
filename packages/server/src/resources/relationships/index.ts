/** @module resources/relationships: friends, requests, blocks and the connected-games setting. */
export { buildRelationshipDispatch, RelationshipEvents } from './events.js';
export { mergeRelationships, unmergeRelationships } from './moves.js';
export { readRelationships } from './read.js';
export { registerRelationshipRoutes } from './routes.js';
export { MAX_FRIENDS, RELATIONSHIPS_WRITE_SCOPE, SPAM_ACCOUNT_AGE_MS } from './rules.js';
export { serializeRelationship, type RelationshipWire } from './serialize.js';
export {
  createRelationshipService,
  DEFAULT_RELATIONSHIP_OPTIONS,
  type RelationshipOptions,
  type RelationshipService,
} from './service.js';
export { PutRelationshipBody } from './schemas.js';
export { relationshipsModule } from './module.js';
