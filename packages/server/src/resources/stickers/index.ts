/** @module resources/stickers: the public surface of guild stickers. */
export { registerStickerCdnRoutes, registerStickerRoutes } from './routes.js';
export { serializeSticker, type StickerWire } from './serialize.js';
export { createStickerService } from './service.js';
export { stickersModule } from './module.js';
