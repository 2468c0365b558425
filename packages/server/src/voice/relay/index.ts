/** @module The media relay of end-to-end encrypted voice: UDP, IP discovery, transport crypto. */
export { MediaRelay } from './mediaRelay.js';
export {
  DEFAULT_MEDIA_RELAY_OPTIONS,
  RELAY_DROP_REASONS,
  type MediaRelayOptions,
  type MediaRelayStats,
  type RelayDropReason,
} from './relayOptions.js';
export { TransportCipher, rtpsizeHeaderBytes, rtpExtensionBodyBytes } from './transportCrypto.js';
export { classifyFrame, FrameKind, OPUS_SILENCE_FRAME } from './mediaFrame.js';
export { discoveryRequest, discoveryResponse } from './ipDiscovery.js';
