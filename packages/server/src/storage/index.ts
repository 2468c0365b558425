/** @module storage: the Storage contract. Drivers live in sqlite/ and postgres/ (app.ts picks). */
export type * from './types.js';
export { TokenKinds } from './types.js';
export { StorageConflictError } from './errors.js';
