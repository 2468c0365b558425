/** @module resources/soundboard: guild and default soundboard sounds, playing them in voice. */
export { readAudio, oggCrc, type AudioInfo } from './audio.js';
export { DEFAULT_SOUNDS, serializeDefaultSound, silentMp3 } from './defaults.js';
export { registerSoundboardCdnRoutes, registerSoundboardRoutes } from './routes.js';
export { serializeSound, type SoundWire } from './serialize.js';
export { createSoundboardService, decodeSound, type SoundboardService } from './service.js';
export { soundboardModule } from './module.js';
