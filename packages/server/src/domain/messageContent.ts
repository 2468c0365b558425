import { ApplicationFlags } from '@guildhall/protocol';

/**
 * The MESSAGE_CONTENT privileged intent rule (spec, "Message content"): an app without it reads
 * messages with empty content, embeds, attachments and components on every surface (REST, gateway,
 * search, interactions), except its own messages, messages in DMs with it and messages that
 * mention it. People always read content.
 */
export interface ContentReader {
  /** The reading user (a bot user for apps). */
  userId: string;
  /** True for a bot or a Bearer token acting for an app: only apps are subject to the rule. */
  isApp: boolean;
  /** Whether this app may read content here: the intent on a gateway session, the flag on REST. */
  hasMessageContent: boolean;
}

/** What the rule needs to know about one message. */
export interface ContentSubject {
  authorId: string;
  /** In a DM or group DM the reader takes part in. */
  inDirectChannel: boolean;
  /** Users the message mentions (resolved mentions, not raw text). */
  mentionedUserIds: readonly string[];
}

/** Whether `reader` sees the content of `message`. */
export function canReadMessageContent(reader: ContentReader, message: ContentSubject): boolean {
  return (
    !reader.isApp ||
    reader.hasMessageContent ||
    message.authorId === reader.userId ||
    message.inDirectChannel ||
    message.mentionedUserIds.includes(reader.userId)
  );
}

/** Whether an app's flags enable message content for REST reads (either flag, per the spec). */
export function applicationHasMessageContent(flags: bigint): boolean {
  const mask =
    ApplicationFlags.GATEWAY_MESSAGE_CONTENT | ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED;
  return (flags & mask) !== 0n;
}

/** The fields the rule empties. */
interface ContentFields {
  content: string;
  embeds: readonly unknown[];
  attachments: readonly unknown[];
  components?: readonly unknown[];
}

/** A copy of a wire message with the content fields emptied, as an app without access sees it. */
export function withoutMessageContent<TMessage extends ContentFields>(message: TMessage): TMessage {
  return {
    ...message,
    content: '',
    embeds: [],
    attachments: [],
    ...(message.components === undefined ? {} : { components: [] }),
  };
}
