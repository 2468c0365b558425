/**
 * `Client::CanOpenMessageInDiscord` and `OpenMessageInDiscord`: a message the game cannot show
 * whole (an image, a poll) opened in the platform's web client, at the message
 * (`<web base>/channels/@me/<channel id>/<message id>`).
 *
 * @module
 */
import type { ClientCore } from './core.js';
import { ChannelType, ErrorType } from './enums.js';
import { SdkError, validationError } from './errors.js';
import type { ProvisionalUserMergeRequiredCallback } from './lobbies.js';
import { isProvisionalUser } from './users.js';

/**
 * Whether the message can be viewed in the web client: a DM or group DM message the client
 * holds. Lobby messages and the ephemeral DMs between two provisional accounts are not kept
 * where the web client shows them.
 */
export function canOpenMessageInDiscord(core: ClientCore, messageId: string): boolean {
  const message = core.state.messages.get(messageId);
  if (message === undefined || message.lobby_id !== undefined) return false;
  const type = core.state.channels.get(message.channel_id)?.type;
  return type === ChannelType.Dm || type === ChannelType.GroupDm;
}

/**
 * Opens the message in the web client through the platform (`platform.openUrl`); resolves with
 * the URL. A provisional account has no web client to open it in: the merge callback runs (ask
 * the player to link their account) and the promise rejects.
 */
export async function openMessageInDiscord(
  core: ClientCore,
  messageId: string,
  provisionalUserMergeRequiredCallback: ProvisionalUserMergeRequiredCallback | null,
): Promise<string> {
  const operation = 'openMessageInDiscord';
  if (!canOpenMessageInDiscord(core, messageId)) {
    throw validationError(
      `${operation}: message ${messageId} cannot be viewed in the web client (check canOpenMessageInDiscord).`,
    );
  }
  const me = core.state.currentUser;
  if (me !== null && isProvisionalUser(me)) {
    core.invoke(provisionalUserMergeRequiredCallback);
    throw new SdkError(
      `${operation}: a provisional account has no web client; link the player's account (authorize, then getTokenFromProvisionalMerge) and try again.`,
      { type: ErrorType.ValidationError },
    );
  }
  const channelId = core.state.messages.get(messageId)?.channel_id ?? '';
  const url = `${core.webBase}/channels/@me/${channelId}/${messageId}`;
  await core.platform.openUrl(url, core.logger);
  return url;
}
