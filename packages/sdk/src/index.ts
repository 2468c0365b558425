/**
 * `@guildhall/social-sdk`: the Social SDK for TypeScript (docs/sdk.md). This module is the API
 * shared by the Node build (`node.ts`) and the browser build (`browser.ts`); import the package,
 * which picks the right one.
 *
 * @module
 */
export * from './enums.js';
export * from './errors.js';
export {
  Client,
  type ClientOptions,
  type StatusChangedCallback,
  DEFAULT_API_BASE,
  statusName,
  errorName,
} from './client.js';
export type { LogCallback } from './log.js';
export type { WebSocketConstructor } from './gateway.js';
export type { Platform, AuthorizeRedirectRequest, AuthorizeRedirectResult } from './platform.js';
export type * from './wire.js';
export { SDK_VERSION } from './version.js';
export * from './auth.js';
export { TOKEN_EXPIRY_NOTICE_MS, type TokenExpirationCallback } from './tokenExpiry.js';
export * from './users.js';
export * from './relationships.js';
export * from './presence.js';
export * from './messages.js';
export * from './messageChecks.js';
export * from './messageHandle.js';
export { AdditionalContent, AdditionalContentType } from './messageContent.js';
export { DISCLOSURE_CONTENT, DisclosureTypes } from './disclosure.js';
export * from './lobbies.js';
export * from './guilds.js';
export * from './launch.js';
export * from './voice.js';
