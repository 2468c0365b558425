/**
 * Wire-level constants and types of the Guildhall platform, shared by the server and the SDK: the
 * error catalogue and error body shapes, permission bits, snowflake ids, gateway opcodes, close
 * codes and intents, message types, and the flag bitfields of applications, users, channels,
 * messages, attachments and activities. The package has no runtime dependencies and does no I/O;
 * wire field names stay snake_case here.
 *
 * @packageDocumentation
 */

export * from './activities.js';
export * from './errors.js';
export * from './flags.js';
export * from './gateway.js';
export * from './messages.js';
export * from './oauthScopes.js';
export * from './permissions.js';
export * from './snowflake.js';
export * from './auditLog.js';
export * from './rpc.js';
export * from './voice.js';
