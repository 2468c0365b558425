import { useState, type SyntheticEvent } from 'react';
import { useLocation } from 'wouter';
import type { APIGuild } from 'discord-api-types/v10';
import { api, ApiError, errorMessage } from '../../lib/api.js';
import { Field, FormError } from '../../components/Field.js';
import { Dialog } from '../../components/Dialog.js';

/** "Create a server": POST /guilds, then the new guild (its GUILD_CREATE fills the rail). */
export function CreateGuildDialog({ onClose }: { onClose: () => void }) {
  const [, navigate] = useLocation();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [fields, setFields] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const submit = async (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    setBusy(true);
    setFields({});
    setMessage(null);
    try {
      const guild = await api<APIGuild>('POST', '/guilds', { body: { name } });
      onClose();
      navigate(`/channels/${guild.id}`);
    } catch (error) {
      if (error instanceof ApiError) setFields(error.fieldErrors());
      setMessage(errorMessage(error));
      setBusy(false);
    }
  };
  return (
    <Dialog title="Create a server" onClose={onClose}>
      <form
        onSubmit={(event) => {
          void submit(event);
        }}
      >
        <FormError message={Object.keys(fields).length > 0 ? null : message} />
        <Field
          label="Server name"
          name="name"
          value={name}
          required
          maxLength={100}
          error={fields['name']}
          onChange={(event) => {
            setName(event.target.value);
          }}
        />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={busy || name.trim() === ''}>
            Create
          </button>
        </div>
      </form>
    </Dialog>
  );
}
