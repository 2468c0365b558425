/**
 * SHARE_INTERACTION (frameCommands.ts): the client runs the app's slash command for the person
 * in the activity's channel, as its command picker would (`POST /interactions` with the
 * person's session, then INTERACTION_SUCCESS or INTERACTION_FAILURE on their gateway session).
 * The command is found in the channel's command index by what the person would type after `/`
 * (`name`, `name sub`, `name group sub`); its options come as strings and are checked as the
 * picker checks them.
 *
 * @module
 */
import { ApplicationCommandOptionType } from 'discord-api-types/v10';
import { RpcErrorCodes } from '@guildhall/protocol';
import type { GatewayClient } from '../../lib/gateway.js';
import type { Store } from '../../lib/store.js';
import { fetchCommandIndex } from '../apps/commandIndex.js';
import {
  buildCommandData,
  commandEntries,
  validateOptions,
  type CommandEntry,
  type FieldValue,
} from '../apps/commandOptions.js';
import { InteractionKind, sendInteraction } from '../apps/interactions.js';
import type { ClientState } from '../state.js';
import { FrameCommandError, invalid } from './frameArgs.js';
import { call } from './storeAbilities.js';

export interface InteractionDeps {
  store: Store<ClientState>;
  gateway: GatewayClient;
  applicationId: string;
  channelId: string;
}

/** What SHARE_INTERACTION asks: the command as typed after `/`, and its options as strings. */
export interface SharedInteraction {
  command: string;
  options: { name: string; value: string }[];
}

/** The entry's field values from the SDK's strings (booleans as `true`/`false`). */
function fieldValues(entry: CommandEntry, options: SharedInteraction['options']) {
  const values: Record<string, FieldValue> = {};
  for (const { name, value } of options) {
    const option = entry.options.find((o) => o.name === name);
    if (option === undefined) throw invalid(`Unknown option: ${name}`);
    if (option.type === ApplicationCommandOptionType.Attachment) {
      throw invalid(`${name} is an attachment option: a string cannot fill it`);
    }
    values[name] = option.type === ApplicationCommandOptionType.Boolean ? value === 'true' : value;
  }
  return values;
}

/** Runs the command; whether the app answered it (INTERACTION_SUCCESS). */
export async function shareInteraction(
  deps: InteractionDeps,
  request: SharedInteraction,
): Promise<boolean> {
  const channel = deps.store.get().channels[deps.channelId];
  if (channel === undefined) {
    throw new FrameCommandError(RpcErrorCodes.INVALID_CHANNEL, 'The activity channel is unknown');
  }
  const index = await call(() => fetchCommandIndex(deps.channelId));
  const entry = commandEntries(index).find(
    (e) => e.command.application_id === deps.applicationId && e.label === request.command,
  );
  if (entry === undefined) throw invalid(`Unknown command: ${request.command}`);
  const values = fieldValues(entry, request.options);
  const [problem] = Object.entries(validateOptions(entry.options, values));
  if (problem !== undefined) throw invalid(`${problem[0]}: ${problem[1]}`);
  const { data } = buildCommandData(entry, values);
  const outcome = await call(() =>
    sendInteraction(deps, {
      type: InteractionKind.COMMAND,
      applicationId: deps.applicationId,
      channel,
      data,
    }),
  );
  return outcome === 'success';
}
