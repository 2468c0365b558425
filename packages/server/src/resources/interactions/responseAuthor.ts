/**
 * Who an interaction's response and followups are by, as messages show it: the app's bot, the
 * message type of the interaction's kind, and `interaction_metadata` (docs/interactions.md#
 * response-messages).
 */
import { MessageTypes } from '@guildhall/protocol';
import type { InteractionRecord, MessageReferenceRecord } from '../../storage/index.js';
import { CommandType } from '../commands/index.js';
import type { MessageAuthor } from '../messages/index.js';
import { InteractionTypes } from './schemas.js';

type Json = Record<string, unknown>;

const objectAt = (value: unknown, key: string): Json | null => {
  if (typeof value !== 'object' || value === null) return null;
  const child = (value as Json)[key];
  return typeof child === 'object' && child !== null && !Array.isArray(child)
    ? (child as Json)
    : null;
};

const stringAt = (value: Json | null, key: string): string | null => {
  const child = value?.[key];
  return typeof child === 'string' ? child : null;
};

/** The invoking user as delivered: the member's user in a guild, else the user. */
function invokingUser(payload: Json): Json | null {
  return objectAt(objectAt(payload, 'member'), 'user') ?? objectAt(payload, 'user');
}

/**
 * The message a component or modal interaction came from: the clicked message, or for a modal
 * submit the message whose component opened the modal (the payload's `message`), else null.
 */
export function sourceMessageId(interaction: InteractionRecord): string | null {
  return interaction.messageId ?? stringAt(objectAt(interaction.payload, 'message'), 'id');
}

/**
 * The metadata of the interaction a message answers (the platform's MessageInteractionMetadata):
 * `target_user`/`target_message_id` for context menus, `interacted_message_id` for components,
 * `triggering_interaction_metadata` for a modal submit (the metadata of the interaction that
 * showed the modal, kept with the submit), `original_response_message_id` on followups.
 */
export function interactionMetadata(
  interaction: InteractionRecord,
  extras: { originalResponseMessageId?: string | null } = {},
): Json {
  const { payload } = interaction;
  const data = objectAt(payload, 'data');
  const metadata: Json = {
    id: interaction.id,
    type: interaction.type,
    user: invokingUser(payload),
    authorizing_integration_owners: objectAt(payload, 'authorizing_integration_owners') ?? {},
  };
  if (extras.originalResponseMessageId != null) {
    metadata['original_response_message_id'] = extras.originalResponseMessageId;
  }
  if (interaction.type === InteractionTypes.APPLICATION_COMMAND) {
    const targetId = stringAt(data, 'target_id');
    if (targetId !== null && data?.['type'] === CommandType.USER) {
      metadata['target_user'] = objectAt(objectAt(objectAt(data, 'resolved'), 'users'), targetId);
    } else if (targetId !== null && data?.['type'] === CommandType.MESSAGE) {
      metadata['target_message_id'] = targetId;
    }
  } else if (interaction.type === InteractionTypes.MESSAGE_COMPONENT) {
    metadata['interacted_message_id'] = sourceMessageId(interaction);
  } else if (
    interaction.type === InteractionTypes.MODAL_SUBMIT &&
    interaction.triggeringMetadata !== null
  ) {
    metadata['triggering_interaction_metadata'] = interaction.triggeringMetadata;
  }
  return metadata;
}

/** Option types 1 SUB_COMMAND and 2 SUB_COMMAND_GROUP, whose names join the command's. */
const SUBCOMMAND_TYPES: ReadonlySet<unknown> = new Set([1, 2]);

/** A slash command's full name as invoked: the command, then its subcommand group and subcommand. */
function invokedName(data: Json): string | null {
  const name = stringAt(data, 'name');
  if (name === null) return null;
  const parts = [name];
  let options = data['options'];
  while (Array.isArray(options)) {
    const sub: unknown = options[0];
    if (options.length !== 1 || typeof sub !== 'object' || sub === null) break;
    const option = sub as Json;
    const subName = stringAt(option, 'name');
    if (!SUBCOMMAND_TYPES.has(option['type']) || subName === null) break;
    parts.push(subName);
    options = option['options'];
  }
  return parts.join(' ');
}

/**
 * The deprecated message `interaction` (the platform's MessageInteraction) of a command's
 * response: `{id, type, name, user}`, `name` with its subcommands ("tag add"). It is the only
 * place a message names the command it answers (`interaction_metadata` does not); null for
 * components and modals.
 */
export function messageInteraction(interaction: InteractionRecord): Json | null {
  const data = objectAt(interaction.payload, 'data');
  if (interaction.type !== InteractionTypes.APPLICATION_COMMAND || data === null) return null;
  const name = invokedName(data);
  if (name === null) return null;
  return {
    id: interaction.id,
    type: interaction.type,
    name,
    user: invokingUser(interaction.payload),
  };
}

/**
 * The message type of a response: 20 CHAT_INPUT_COMMAND for a slash (or entry point) command,
 * 23 CONTEXT_MENU_COMMAND for a user or message command, 0 DEFAULT for a component and for a
 * modal opened from one; 20 for a modal opened from a command.
 */
export function responseMessageType(interaction: InteractionRecord): number {
  if (interaction.type === InteractionTypes.MODAL_SUBMIT) {
    return sourceMessageId(interaction) === null
      ? MessageTypes.CHAT_INPUT_COMMAND
      : MessageTypes.DEFAULT;
  }
  if (interaction.type !== InteractionTypes.APPLICATION_COMMAND) return MessageTypes.DEFAULT;
  const commandType = objectAt(interaction.payload, 'data')?.['type'];
  return commandType === CommandType.USER || commandType === CommandType.MESSAGE
    ? MessageTypes.CONTEXT_MENU_COMMAND
    : MessageTypes.CHAT_INPUT_COMMAND;
}

/** A message command's response points at its target message (message_reference). */
function targetReference(interaction: InteractionRecord): MessageReferenceRecord | null {
  const data = objectAt(interaction.payload, 'data');
  const targetId = stringAt(data, 'target_id');
  if (
    interaction.type !== InteractionTypes.APPLICATION_COMMAND ||
    data?.['type'] !== CommandType.MESSAGE ||
    targetId === null
  ) {
    return null;
  }
  return {
    type: 0,
    channelId: interaction.channelId,
    messageId: targetId,
    guildId: interaction.guildId,
  };
}

/**
 * The author of an interaction's message: the app's bot (or, for an app without one, the app),
 * ephemeral messages for the invoking user only.
 */
export function responseAuthor(
  interaction: InteractionRecord,
  options: {
    botUserId: string | null;
    /** Set on followups: the original response's id. */
    originalResponseMessageId?: string | null;
    /** The deferred response's placeholder. */
    loading?: boolean;
  },
): MessageAuthor {
  const followup = options.originalResponseMessageId != null;
  return {
    kind: 'interaction',
    applicationId: interaction.applicationId,
    botUserId: options.botUserId ?? interaction.applicationId,
    type: responseMessageType(interaction),
    interactionMetadata: interactionMetadata(interaction, {
      originalResponseMessageId: options.originalResponseMessageId ?? null,
    }),
    interaction: messageInteraction(interaction),
    ephemeralUserId: interaction.userId,
    ...(options.loading === true ? { loading: true } : {}),
    ...(followup ? {} : { reference: targetReference(interaction) }),
  };
}
