/** The voice state wire shape lives with the voice routes (resources/voice/wire.ts). */
export { voiceStateWire, type VoiceStateWire } from '../resources/voice/index.js';
