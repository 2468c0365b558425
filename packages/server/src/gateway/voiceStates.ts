/** The voice state wire shape lives with the voice routes (resources/voice/wire.ts). */
import type { DmVoiceStateWire } from '../resources/calls/index.js';
import type { LobbyVoiceStateWire } from '../resources/lobbies/index.js';
import type { VoiceStateWire } from '../resources/voice/index.js';

export { voiceStateWire, type VoiceStateWire } from '../resources/voice/index.js';

/**
 * A voice state as VOICE_STATE_UPDATE carries it: in a guild's voice channel (resources/voice), a
 * lobby's call (resources/lobbies) or a DM's call (resources/calls). Registered here, which may
 * import all three: the guild wing's voice resource may not import the social wing
 * (scripts/wings.js).
 */
type VoiceStatePayload = VoiceStateWire | LobbyVoiceStateWire | DmVoiceStateWire;

declare module '../domain/dispatch.js' {
  interface DispatchPayloads {
    VOICE_STATE_UPDATE: VoiceStatePayload;
  }
}
