/** @module resources/messages: the public surface of messages, attachments, pins and reactions. */
export { attachmentKey } from './attachments.js';
export { announceDeletions, deleteRecentMessages, type DeletedMessages } from './deletion.js';
export { createPinService } from './pins.js';
export { createReactionService } from './reactions.js';
export { contentReaderFor } from './reader.js';
export {
  readMessageBody,
  registerAttachmentCdnRoutes,
  registerMessageRoutes,
  withFiles,
  type MessageRouteOptions,
} from './routes.js';
export { loadMessageContext, serializeMessage, type AttachmentLinks } from './serialize.js';
export { createMessageService } from './service.js';
export { loadAttachmentSigner } from './signedUrls.js';
export {
  MESSAGE_CHANNEL_TYPES,
  PRIVATE_CHANNEL_PERMISSIONS,
  type DispatchTarget,
  type MessageChannelAccess,
} from './access.js';
export type { MessageModeration, PrivateMessageRules, ThreadMessageRules } from './shared.js';
export {
  CreateMessageBody,
  EditMessageBody,
  MAX_CONTENT_LENGTH,
  type CreateMessageInput,
  type EditMessageInput,
} from './schemas.js';
export { viewMessages } from './views.js';
export type { MessageService } from './service.js';
export type { MessageAuthor, MessageOwner, WithinWrite } from './appMessages.js';
export type { MessageWire } from './serialize.js';
export {
  WebhookEditBody,
  WebhookMessageBody,
  type WebhookEditInput,
  type WebhookMessageInput,
} from './schemas.js';
export { loadMessageChannel } from './access.js';
export { POLL_LIMITS, type PollWire } from './polls.js';
export { messagesModule } from './module.js';
