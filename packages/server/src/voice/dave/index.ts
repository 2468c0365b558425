/** @module voice/dave: the DAVE (E2EE voice) delivery service of a call; no I/O, no group keys. */
export {
  DEFAULT_DAVE_CALL_OPTIONS,
  DaveCall,
  DaveProtocolError,
  MAX_COMMIT_WELCOME_BYTES,
  MAX_KEY_PACKAGE_BYTES,
  type DaveCallOptions,
  type DaveMessage,
} from './daveCall.js';
