/** @module resources/emojis: the public surface of guild emoji. */
export { announceEmojiList } from './dispatch.js';
export { registerEmojiCdnRoutes, registerEmojiRoutes } from './routes.js';
export { serializeEmoji, type EmojiWire } from './serialize.js';
export { createEmojiService } from './service.js';
export { EmojiName } from './schemas.js';
export { emojisModule } from './module.js';
