import { useState, type SyntheticEvent } from 'react';
import type { APIChannel } from 'discord-api-types/v10';
import { api, ApiError, errorMessage } from '../../lib/api.js';
import { Field, FormError } from '../../components/Field.js';
import { Dialog } from '../../components/Dialog.js';

/** Sets or clears a voice channel's status (PUT /channels/{id}/voice-status). */
export function VoiceStatusEditor({
  channel,
  status,
  onClose,
}: {
  channel: APIChannel;
  status: string | null;
  onClose: () => void;
}) {
  const [value, setValue] = useState(status ?? '');
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setFields({});
    setMessage(null);
    try {
      // VOICE_CHANNEL_STATUS_UPDATE brings the new status to every client, this one included.
      await api('PUT', `/channels/${channel.id}/voice-status`, {
        body: { status: value === '' ? null : value },
      });
      onClose();
    } catch (error) {
      if (error instanceof ApiError) setFields(error.fieldErrors());
      setMessage(errorMessage(error));
      setBusy(false);
    }
  };
  return (
    <Dialog title={`Status of ${channel.name ?? ''}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          void submit(event);
        }}
      >
        <FormError message={Object.keys(fields).length > 0 ? null : message} />
        <Field
          label="Channel status"
          value={value}
          maxLength={500}
          error={fields['status']}
          hint="Leave empty to clear it."
          onChange={(event) => {
            setValue(event.target.value);
          }}
        />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy}>
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
}
