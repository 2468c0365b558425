import type { APIChannel } from 'discord-api-types/v10';
import { Dialog } from '../../components/Dialog.js';

/** The one-sentence reason, shown in the dialog and exported for the tests that look for it. */
export const VOICE_UNAVAILABLE_REASON =
  'Calls here are end-to-end encrypted with DAVE and carried as RTP over UDP, and a browser has ' +
  'neither raw UDP sockets nor a maintained DAVE implementation, so this page cannot take part ' +
  'in a call without breaking its encryption.';

/**
 * What a click on a voice channel opens: the web client does not join calls, why, and what does
 * (docs/web.md#voice). Nothing is sent to the gateway: the person is not put in the channel.
 */
export function VoiceUnavailableDialog({
  channel,
  onClose,
}: {
  channel: APIChannel;
  onClose: () => void;
}) {
  return (
    <Dialog
      title={`You cannot join ${channel.name ?? 'this channel'} from the browser`}
      description={VOICE_UNAVAILABLE_REASON}
      onClose={onClose}
      className="voice-unavailable"
    >
      <p>The channel list shows who is in the call, live. To hear it or speak in it, use:</p>
      <ul className="voice-alternatives">
        <li>
          a bot: discord.js with <code>@discordjs/voice</code> (DAVE through{' '}
          <code>@snazzah/davey</code>) joins this channel unchanged;
        </li>
        <li>
          a game: the Guildhall Social SDK for Node (<code>@guildhall/social-sdk</code>) joins lobby
          calls.
        </li>
      </ul>
      <p>
        How, with code to copy: <code>docs/voice.md</code>, section “Clients”, and{' '}
        <code>docs/web.md</code>, section “Voice”, in the Guildhall repository.
      </p>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose} data-autofocus>
          Close
        </button>
      </div>
    </Dialog>
  );
}
