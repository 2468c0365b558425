/**
 * /webhooks/{application_id}/{interaction_token}/…: an interaction's original response and its
 * followups, for 15 minutes after it was created (docs/interactions.md#followups). The token is
 * checked by its hash; the messages are the app's, made and changed through the message
 * service's app writes.
 */
import { isSnowflake, MessageFlags } from '@guildhall/protocol';
import { hashSecret } from '../../domain/credentials.js';
import { ApiError } from '../../errors/index.js';
import type { InteractionRecord, Storage } from '../../storage/index.js';
import type {
  MessageOwner,
  MessageService,
  MessageWire,
  WebhookEditInput,
  WebhookMessageInput,
} from '../messages/index.js';
import type { InteractionWebhooks } from '../webhooks/index.js';
import { CALLBACK_TYPES } from './callbackSchemas.js';
import { responseAuthor } from './responseAuthor.js';

/** The message id the routes take for the original response. */
const ORIGINAL = '@original';

/** Initial responses that followups may follow: a message, or the update of one. */
const FOLLOWED: ReadonlySet<number> = new Set([
  CALLBACK_TYPES.CHANNEL_MESSAGE_WITH_SOURCE,
  CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
  CALLBACK_TYPES.DEFERRED_UPDATE_MESSAGE,
  CALLBACK_TYPES.UPDATE_MESSAGE,
]);

/** Initial responses whose original message is the one a component was clicked on. */
const UPDATES: ReadonlySet<number> = new Set([
  CALLBACK_TYPES.DEFERRED_UPDATE_MESSAGE,
  CALLBACK_TYPES.UPDATE_MESSAGE,
]);

/** A followup's fields an edit takes (what the original response keeps when a followup fills it). */
function asEdit(input: WebhookMessageInput): WebhookEditInput {
  const { content, embeds, allowed_mentions, components, attachments, poll } = input;
  return {
    ...(content === undefined ? {} : { content }),
    ...(embeds === undefined ? {} : { embeds }),
    ...(allowed_mentions === undefined ? {} : { allowed_mentions }),
    ...(components === undefined ? {} : { components }),
    ...(attachments === undefined ? {} : { attachments }),
    ...(poll === undefined ? {} : { poll }),
    // Ephemeral or not was settled by the deferral; the other flags apply.
    ...(input.flags == null ? {} : { flags: input.flags & ~MessageFlags.EPHEMERAL }),
  };
}

/** The interaction webhooks over storage and the message service (`storage` dispatching). */
export function createInteractionWebhooks(deps: {
  storage: Storage;
  clock: { now(): number };
  messages: Pick<MessageService, 'postAs' | 'getAs' | 'editAs' | 'deleteAs'>;
}): InteractionWebhooks {
  const { storage, clock, messages } = deps;

  /**
   * The interaction of this token under `id`: the application's id, or (an application made
   * before its bot user shared its id) its bot user's id, which is what a library that reads the
   * id from the bot token sends. The second read happens only when the first finds nothing.
   */
  const findByToken = async (id: string, tokenHash: string) => {
    const interaction = await storage.interactions.findByToken(id, tokenHash);
    if (interaction !== null) return interaction;
    const application = await storage.applications.findByBotUserId(id);
    if (application === null || application.id === id) return null;
    return storage.interactions.findByToken(application.id, tokenHash);
  };

  /**
   * The interaction this token is of: 10015 when there is none (or it failed, which ends its
   * token), 50027 once its 15 minutes are over.
   */
  const interactionOf = async (
    applicationId: string,
    token: string,
  ): Promise<InteractionRecord> => {
    const interaction = isSnowflake(applicationId)
      ? await findByToken(applicationId, hashSecret(token))
      : null;
    if (interaction?.failedAt !== null) throw new ApiError('UNKNOWN_WEBHOOK');
    if (interaction.expiresAt <= clock.now()) throw new ApiError('INVALID_WEBHOOK_TOKEN');
    return interaction;
  };

  /** Whose message `messageId` must be: the app's; the original may be its bot's own. */
  const ownerOf = async (interaction: InteractionRecord, messageId: string) => {
    const original = messageId === ORIGINAL;
    const id = original ? interaction.originalMessageId : messageId;
    if (id === null) throw new ApiError('UNKNOWN_MESSAGE');
    const owner: MessageOwner = { applicationId: interaction.applicationId };
    if (original && interaction.responseType !== null && UPDATES.has(interaction.responseType)) {
      const application = await storage.applications.findById(interaction.applicationId);
      if (application?.botUserId != null)
        return { id, owner: { ...owner, botUserId: application.botUserId } };
    }
    return { id, owner };
  };

  return {
    async get(applicationId, token) {
      const interaction = await interactionOf(applicationId, token);
      const application = await storage.applications.findById(interaction.applicationId);
      if (application === null) throw new ApiError('UNKNOWN_WEBHOOK');
      return {
        type: 3,
        id: application.id,
        name: application.name,
        avatar: application.icon,
        channel_id: interaction.channelId,
        guild_id: interaction.guildId,
        application_id: application.id,
      };
    },

    async execute(applicationId, token, request): Promise<MessageWire> {
      const interaction = await interactionOf(applicationId, token);
      if (interaction.responseType === null || !FOLLOWED.has(interaction.responseType)) {
        throw new ApiError('UNKNOWN_WEBHOOK');
      }
      const originalId = interaction.originalMessageId;
      if (
        interaction.responseType === CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE &&
        originalId !== null
      ) {
        // The platform's compatibility rule: the first followup of a deferred response fills
        // its loading message instead of posting one.
        // (A placeholder the app deleted is gone: the followup is posted.)
        const original = await storage.messages.findAnyById(interaction.channelId, originalId);
        if (original !== null && (original.flags & MessageFlags.LOADING) !== 0) {
          const owner = { applicationId: interaction.applicationId };
          return messages.editAs(interaction.channelId, originalId, owner, {
            input: asEdit(request.input),
            files: request.files,
          });
        }
      }
      const application = await storage.applications.findById(interaction.applicationId);
      const { wire } = await messages.postAs({
        channelId: interaction.channelId,
        author: responseAuthor(interaction, {
          botUserId: application?.botUserId ?? null,
          originalResponseMessageId: originalId,
        }),
        input: request.input,
        files: request.files,
      });
      return wire;
    },

    async getMessage(applicationId, token, messageId) {
      const interaction = await interactionOf(applicationId, token);
      const { id, owner } = await ownerOf(interaction, messageId);
      return messages.getAs(interaction.channelId, id, owner);
    },

    // eslint-disable-next-line max-params -- the port's signature (resources/webhooks/port.ts).
    async editMessage(applicationId, token, messageId, request) {
      const interaction = await interactionOf(applicationId, token);
      const { id, owner } = await ownerOf(interaction, messageId);
      return messages.editAs(interaction.channelId, id, owner, request);
    },

    async deleteMessage(applicationId, token, messageId) {
      const interaction = await interactionOf(applicationId, token);
      const { id, owner } = await ownerOf(interaction, messageId);
      await messages.deleteAs(interaction.channelId, id, owner);
    },
  };
}
