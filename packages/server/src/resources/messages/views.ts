import type { Principal } from '../../http/authenticator.js';
import type { MessageRecord, Repositories } from '../../storage/index.js';
import { contentReaderFor } from './reader.js';
import {
  loadMessageContext,
  serializeMessage,
  type AttachmentLinks,
  type MessageWire,
} from './serialize.js';

/**
 * Messages as the caller sees them over REST: reactions seen by the caller, referenced messages,
 * and the MESSAGE_CONTENT rule for apps. A constant number of queries for any number of messages.
 */
export async function viewMessages(
  repos: Repositories,
  request: { principal: Principal; messages: readonly MessageRecord[]; links: AttachmentLinks },
): Promise<MessageWire[]> {
  const { principal, messages } = request;
  if (messages.length === 0) return [];
  const [reader, context] = await Promise.all([
    contentReaderFor(repos, principal),
    loadMessageContext(repos, messages, {
      links: request.links,
      viewerId: principal.user.id,
      reader: null,
      knownUsers: [principal.user],
    }),
  ]);
  const withReader = { ...context, reader };
  return messages.map((message) => serializeMessage(message, withReader));
}

/** One message as the full wire payload a dispatch carries (the gateway filters per session). */
export async function dispatchPayload(
  repos: Repositories,
  request: { message: MessageRecord; viewerId: string; links: AttachmentLinks },
): Promise<MessageWire> {
  const context = await loadMessageContext(repos, [request.message], {
    links: request.links,
    viewerId: request.viewerId,
    reader: null,
    reactions: false,
  });
  return serializeMessage(request.message, context);
}
