/** @module resources/expressions: the edit rights shared by emoji, stickers and scheduled events. */
export { holdsEither, requireEditRights, type Mutation } from './editRights.js';
