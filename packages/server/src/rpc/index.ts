/**
 * @module rpc: the local client's IPC side (docs/rpc.md): `guildhall rpc` and
 * `guildhall start --rpc`.
 */
export { CONSENT_MODES, isConsentMode, type Ask, type ConsentMode } from './consent.js';
export { runRpc, RpcStartError, type RunRpcOptions, type RunningRpc } from './run.js';
export { apiBaseOf } from './platformApi.js';
export { SUPPORTED_COMMANDS } from './commands.js';
export { DEFAULT_RPC_DAEMON_LIMITS } from './daemon.js';
