/** @module resources/messages: the public surface of messages, attachments, pins and reactions. */
export { attachmentKey } from './attachments.js';
export { announceDeletions, deleteRecentMessages, type DeletedMessages } from './deletion.js';
export { createPinService } from './pins.js';
export { createReactionService } from './reactions.js';
export { contentReaderFor } from './reader.js';
export { registerAttachmentCdnRoutes, registerMessageRoutes } from './routes.js';
export { loadMessageContext, serializeMessage, type AttachmentLinks } from './serialize.js';
export { createMessageService } from './service.js';
export { loadAttachmentSigner } from './signedUrls.js';
