/**
 * What the invoking person's own clients hear of an app's response beyond messages: the modal
 * to show and the autocomplete choices. The platform's client hears them as
 * INTERACTION_MODAL_CREATE and APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE, whose shapes its public
 * documentation leaves out; Guildhall sends them under those names to the user's sessions
 * (docs/interactions.md#guildhall-dispatches). Bots and other games' SDK sessions never get them.
 */
import type { DispatchRoute } from '../../domain/dispatch.js';
import { afterCommit } from '../../events/afterCommit.js';
import type { ApplicationRecord, InteractionRecord, Repositories } from '../../storage/index.js';
import type { ModalRecord } from '../components/index.js';
import type { AutocompleteChoice } from './autocomplete.js';

/** INTERACTION_MODAL_CREATE: the modal the app answered with, to show its invoker. */
export interface InteractionModalPayload {
  id: string;
  channel_id: string;
  custom_id: string;
  application: { id: string; name: string; icon: string | null; description: string };
  title: string;
  components: ModalRecord['components'];
  nonce: string | null;
}

/** APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE: the choices for the option being typed. */
export interface AutocompleteResponsePayload {
  id: string;
  choices: readonly AutocompleteChoice[];
  nonce: string | null;
}

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    INTERACTION_MODAL_CREATE: InteractionModalPayload;
    APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE: AutocompleteResponsePayload;
  }
}

/** Where a dispatch to the invoking user's own sessions goes, scoped to the app. */
function toInvoker(interaction: InteractionRecord): DispatchRoute {
  return { guildId: null, userIds: [interaction.userId], applicationId: interaction.applicationId };
}

/** Announces, once `tx` commits, the modal the app answered with. */
export function modalDispatch(
  tx: Repositories,
  shown: { interaction: InteractionRecord; application: ApplicationRecord; modal: ModalRecord },
): void {
  const { interaction, application, modal } = shown;
  afterCommit(tx, {
    type: 'INTERACTION_MODAL_CREATE',
    ...toInvoker(interaction),
    data: {
      id: interaction.id,
      channel_id: interaction.channelId,
      custom_id: modal.custom_id,
      application: {
        id: application.id,
        name: application.name,
        icon: application.icon,
        description: application.description,
      },
      title: modal.title,
      components: modal.components,
      nonce: interaction.nonce,
    },
  });
}

/** Announces, once `tx` commits, the choices the app offered for the option being typed. */
export function autocompleteDispatch(
  tx: Repositories,
  interaction: InteractionRecord,
  choices: readonly AutocompleteChoice[],
): void {
  afterCommit(tx, {
    type: 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
    ...toInvoker(interaction),
    data: { id: interaction.id, choices, nonce: interaction.nonce },
  });
}
