/**
 * The bodies of an interaction's initial response (POST /interactions/{id}/{token}/callback, or
 * the app's answer to a signed delivery), one schema per callback type, and which callback types
 * each interaction type takes (docs/interactions.md#responding).
 */
import { z } from 'zod';
import { QueryBoolean } from '../../http/schemas.js';
import { WebhookEditBody, WebhookMessageBody } from '../messages/index.js';
import { InteractionTypes } from './schemas.js';

/** The interaction callback types (PONG answers only the endpoint check's PING). */
export const CALLBACK_TYPES = {
  PONG: 1,
  CHANNEL_MESSAGE_WITH_SOURCE: 4,
  DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE: 5,
  DEFERRED_UPDATE_MESSAGE: 6,
  UPDATE_MESSAGE: 7,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: 8,
  MODAL: 9,
  LAUNCH_ACTIVITY: 12,
} as const;

/** The most choices an autocomplete result holds. */
export const MAX_AUTOCOMPLETE_CHOICES = 25;

export const CallbackParams = z.object({
  interaction_id: z.string(),
  interaction_token: z.string(),
});

/** `with_response`: answer 200 with the InteractionCallbackResponse instead of 204. */
export const CallbackQuery = z.object({ with_response: QueryBoolean.optional() });

/** A message response's data: a followup's fields but the webhook's name, avatar and thread. */
export const CallbackMessageData = WebhookMessageBody.pick({
  content: true,
  tts: true,
  embeds: true,
  allowed_mentions: true,
  components: true,
  attachments: true,
  flags: true,
  poll: true,
});

/** The data of UPDATE_MESSAGE: an edit of the message the component is on. */
export const CallbackUpdateData = WebhookEditBody;

/** An autocomplete choice (the platform's ApplicationCommandOptionChoice). */
const AutocompleteChoice = z.object({
  name: z.string().min(1).max(100),
  name_localizations: z.record(z.string(), z.string().min(1).max(100)).nullable().optional(),
  value: z.union([z.string().max(100), z.number()]),
});

/** The data of APPLICATION_COMMAND_AUTOCOMPLETE_RESULT: at most 25 choices. */
export const CallbackAutocompleteData = z.object({
  choices: z.array(AutocompleteChoice).max(MAX_AUTOCOMPLETE_CHOICES).nullable().optional(),
});

/** The callback types a body may name (PREMIUM_REQUIRED 10 is deprecated and not taken). */
export const CallbackType = z.literal([
  CALLBACK_TYPES.PONG,
  CALLBACK_TYPES.CHANNEL_MESSAGE_WITH_SOURCE,
  CALLBACK_TYPES.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE,
  CALLBACK_TYPES.DEFERRED_UPDATE_MESSAGE,
  CALLBACK_TYPES.UPDATE_MESSAGE,
  CALLBACK_TYPES.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT,
  CALLBACK_TYPES.MODAL,
  CALLBACK_TYPES.LAUNCH_ACTIVITY,
]);
export type CallbackTypeValue = z.infer<typeof CallbackType>;

/** A response body as the app sent it: its type, and data checked per type. */
export const CallbackEnvelope = z.object({ type: CallbackType, data: z.unknown().optional() });

/** A body with message data (CHANNEL_MESSAGE_WITH_SOURCE, DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE). */
export const MessageCallbackBody = z.object({ data: CallbackMessageData.nullable().optional() });
/** A body with edit data (UPDATE_MESSAGE); `{}` or none changes nothing but the edit time. */
export const UpdateCallbackBody = z.object({ data: CallbackUpdateData.nullable().optional() });
/** A body with autocomplete choices. */
export const AutocompleteCallbackBody = z.object({ data: CallbackAutocompleteData });
/** A body with a modal (checked by the components' validateModal). */
export const ModalCallbackBody = z.object({ data: z.record(z.string(), z.unknown()) });

/**
 * The callback types an interaction takes, as the platform lists them in its 50035
 * BASE_TYPE_CHOICES answer. UPDATE_MESSAGE and DEFERRED_UPDATE_MESSAGE need a message the
 * interaction came from (a component's, or a modal's opened from a component); MODAL is not an
 * answer to a modal; LAUNCH_ACTIVITY needs an app with an activity (a root URL mapping:
 * docs/interactions.md#launch-activity).
 */
export function allowedCallbackTypes(interaction: {
  type: number;
  /** Whether the interaction came from a message's component (directly or through a modal). */
  fromMessage: boolean;
  /** Whether the application has an activity to launch. */
  hasActivity: boolean;
}): readonly number[] {
  const T = CALLBACK_TYPES;
  const launch = interaction.hasActivity ? [T.LAUNCH_ACTIVITY] : [];
  const update = interaction.fromMessage ? [T.DEFERRED_UPDATE_MESSAGE, T.UPDATE_MESSAGE] : [];
  const message = [T.CHANNEL_MESSAGE_WITH_SOURCE, T.DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE];
  switch (interaction.type) {
    case InteractionTypes.PING:
      return [T.PONG];
    case InteractionTypes.APPLICATION_COMMAND:
      return [...message, T.MODAL, ...launch];
    case InteractionTypes.MESSAGE_COMPONENT:
      return [...message, ...update, T.MODAL, ...launch];
    case InteractionTypes.APPLICATION_COMMAND_AUTOCOMPLETE:
      return [T.APPLICATION_COMMAND_AUTOCOMPLETE_RESULT];
    case InteractionTypes.MODAL_SUBMIT:
      return [...message, ...update, ...launch];
    default:
      return [];
  }
}
