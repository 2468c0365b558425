/**
 * @module storage: the Storage contract, one file per aggregate under types/ and `Storage` itself
 * in types/storage.ts. Drivers live in sqlite/ and postgres/ (appDrivers.ts picks); everything else
 * imports from this index only.
 */
export * from './types/applications.js';
export * from './types/auditLog.js';
export * from './types/blobRefs.js';
export * from './types/channels.js';
export * from './types/expressions.js';
export * from './types/gateway.js';
export * from './types/gameStats.js';
export * from './types/guilds.js';
export * from './types/invites.js';
export * from './types/lobbies.js';
export * from './types/calls.js';
export * from './types/members.js';
export * from './types/messages.js';
export * from './types/oauth.js';
export * from './types/outbox.js';
export * from './types/privateChannels.js';
export * from './types/provisional.js';
export * from './types/search.js';
export * from './types/serverSecrets.js';
export * from './types/storage.js';
export * from './types/tokens.js';
export * from './types/users.js';
export * from './types/workerLeases.js';
export * from './types/relationships.js';
export * from './types/interactions.js';
export * from './types/commands.js';
export * from './types/webhooks.js';
export * from './types/activities.js';
export * from './types/monetization.js';
export * from './types/voiceExpressions.js';
export * from './types/guildSettings.js';
export * from './types/threads.js';
export { GroupCommitTimeoutError, StorageConflictError, isStorageUnavailable } from './errors.js';
