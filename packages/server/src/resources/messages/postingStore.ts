/**
 * @module resources/messages/postingStore: the end of the create path: a checked message
 * written (group-committed, or with a private channel's consequences), announced and answered.
 */
import { afterWrite } from '../../events/afterCommit.js';
import type { Principal } from '../../http/authenticator.js';
import type { MessageRecord, NewMessage, PollRecord } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import type { DispatchTarget, MessageChannelAccess } from './access.js';
import { EMPTY_TALLY, serializePoll } from './polls.js';
import { contentReaderFor } from './reader.js';
import {
  loadMessageContext,
  serializeMessage,
  type AttachmentLinks,
  type MessageWire,
} from './serialize.js';
import type { MessageHelpers, MessageServiceOptions, Uploads } from './shared.js';

/** A checked message and what its write and answer need. */
export interface PostedMessage {
  message: NewMessage;
  poll: PollRecord | null;
  uploads: Uploads;
  /** In a thread: the thread counts the message and wakes. */
  inThread: boolean;
  replied: MessageRecord | null;
  /** Whom it mentions: the answer then loads their users. */
  mentionUserIds: readonly string[];
  sendTo: DispatchTarget;
  links: AttachmentLinks;
}

/** Writes a checked message, announces MESSAGE_CREATE once it is durable, and answers it. */
export function createPostingStore(
  deps: ServiceDeps,
  options: MessageServiceOptions,
  helpers: MessageHelpers,
) {
  const { storage } = deps;
  const { withUploads } = helpers;

  return async function store(
    principal: Principal,
    access: MessageChannelAccess,
    posted: PostedMessage,
  ): Promise<MessageWire> {
    const { message, poll, uploads, inThread, replied, sendTo, links } = posted;
    const now = message.createdAt;
    const messageId = message.id;
    const nonce = message.nonce;
    // The spread last: properties added after a leading spread take V8's slow path, ten times
    // the cost of the copy on every create (docs/benchmarks.md). A new message has neither.
    const record: MessageRecord = { pinnedAt: null, editedAt: null, ...message };
    const rules = options.privateRules;
    // Group-committed with the other writes of the moment: answered once it is on disk. A
    // private channel's message commits with what it causes (reopened DMs, webhook events).
    const insert = () =>
      access.privateChannel === null || rules === undefined
        ? storage.groupTransaction(async (tx) => {
            await tx.messages.create(message);
            if (poll !== null) await tx.polls.create(poll);
            // A thread counts the message and wakes (its auto-archive starts again).
            if (inThread) {
              await options.threadRules?.posted(tx, {
                threadId: message.channelId,
                userId: message.authorId,
                nowMs: now,
              });
            }
          })
        : storage.transaction(async (tx) => {
            await tx.messages.create(message);
            if (poll !== null) await tx.polls.create(poll);
            await rules.created(tx, { principal, access, message: record });
          });
    if (message.attachments.length === 0) await insert();
    else await withUploads(uploads, insert);
    const needsContext =
      replied !== null || posted.mentionUserIds.length > 0 || message.activity != null;
    const context = needsContext
      ? await loadMessageContext(storage, [record], {
          links,
          viewerId: principal.user.id,
          reader: null,
          knownUsers: [principal.user],
          reactions: false,
        })
      : {
          links,
          users: new Map([[principal.user.id, principal.user]]),
          reactions: new Map(),
          referenced: new Map(),
          reader: null,
        };
    const withNonce = nonce === null ? {} : { nonce };
    const withPoll =
      poll === null
        ? context
        : { ...context, polls: new Map([[messageId, serializePoll(poll, EMPTY_TALLY)]]) };
    const wire = { ...serializeMessage(record, withPoll), ...withNonce };
    // Announced once the message is committed (its batch is durable): published at once.
    afterWrite(storage, {
      type: 'MESSAGE_CREATE',
      ...sendTo,
      data: { ...wire, ...access.guildWire, ...access.memberWire() },
    });
    if (replied === null) return wire;
    // The caller's own message is readable; its referenced_message follows the rule.
    const reader = await contentReaderFor(storage, principal);
    return { ...serializeMessage(record, { ...withPoll, reader }), ...withNonce };
  };
}
