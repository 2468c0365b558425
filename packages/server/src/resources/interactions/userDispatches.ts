/**
 * What the invoking person's own clients hear of an app's response beyond messages: the modal
 * to show and the autocomplete choices. The platform's client hears them as
 * INTERACTION_MODAL_CREATE and APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE, whose shapes its public
 * documentation leaves out; Guildhall sends them under those names to the user's sessions
 * (docs/interactions.md#guildhall-dispatches). Bots and other games' SDK sessions never get them.
 */
import { afterCommit } from '../../events/afterCommit.js';
import type { ApplicationRecord, InteractionRecord, Repositories } from '../../storage/index.js';
import type { ModalRecord } from '../components/index.js';

/** A dispatch to the invoking user's own sessions, scoped to the app. */
function toInvoker(
  interaction: InteractionRecord,
  type: 'INTERACTION_MODAL_CREATE' | 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE',
  data: Record<string, unknown>,
) {
  return {
    type,
    guildId: null,
    userIds: [interaction.userId],
    applicationId: interaction.applicationId,
    data,
  };
}

/** Announces, once `tx` commits, the modal the app answered with. */
export function modalDispatch(
  tx: Repositories,
  shown: { interaction: InteractionRecord; application: ApplicationRecord; modal: ModalRecord },
): void {
  const { interaction, application, modal } = shown;
  afterCommit(
    tx,
    toInvoker(interaction, 'INTERACTION_MODAL_CREATE', {
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
    }),
  );
}

/** Announces, once `tx` commits, the choices the app offered for the option being typed. */
export function autocompleteDispatch(
  tx: Repositories,
  interaction: InteractionRecord,
  choices: readonly unknown[],
): void {
  afterCommit(
    tx,
    toInvoker(interaction, 'APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE', {
      id: interaction.id,
      choices,
      nonce: interaction.nonce,
    }),
  );
}
