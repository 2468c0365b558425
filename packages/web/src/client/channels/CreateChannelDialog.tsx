import { useState, type SyntheticEvent } from 'react';
import { useLocation } from 'wouter';
import { ChannelType, type APIChannel, type APIGuild } from 'discord-api-types/v10';
import { api } from '../../lib/api.js';
import { useApiForm } from '../../components/useApiForm.js';
import { Field, FormError } from '../../components/Field.js';
import { Dialog } from '../../components/Dialog.js';
import { useClientState } from '../context.js';

const EMPTY: string[] = [];

/**
 * "Create Channel": a text or voice channel, in a category or none (POST /guilds/{id}/channels);
 * a text channel opens once made. The sidebar follows CHANNEL_CREATE.
 */
export function CreateChannelDialog({ guild, onClose }: { guild: APIGuild; onClose: () => void }) {
  const [, navigate] = useLocation();
  const ids = useClientState((s) => s.guildChannelIds[guild.id] ?? EMPTY);
  const channels = useClientState((s) => s.channels);
  const categories = ids
    .map((id) => channels[id])
    .filter((c): c is APIChannel => c?.type === ChannelType.GuildCategory);
  const [name, setName] = useState('');
  const [type, setType] = useState<ChannelType.GuildText | ChannelType.GuildVoice>(
    ChannelType.GuildText,
  );
  const [parent, setParent] = useState('');
  const form = useApiForm();
  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = { name, type, ...(parent === '' ? {} : { parent_id: parent }) };
    void form.submit(() => api<APIChannel>('POST', `/guilds/${guild.id}/channels`, { body }), {
      onSuccess: (channel) => {
        onClose();
        if (channel.type === ChannelType.GuildText) navigate(`/channels/${guild.id}/${channel.id}`);
      },
    });
  };
  return (
    <Dialog title="Create Channel" onClose={onClose}>
      <form onSubmit={submit}>
        <FormError message={form.summary(['name'])} />
        <fieldset className="channel-type">
          <legend>Channel type</legend>
          <label>
            <input
              type="radio"
              name="type"
              checked={type === ChannelType.GuildText}
              onChange={() => {
                setType(ChannelType.GuildText);
              }}
            />{' '}
            Text
          </label>
          <label>
            <input
              type="radio"
              name="type"
              checked={type === ChannelType.GuildVoice}
              onChange={() => {
                setType(ChannelType.GuildVoice);
              }}
            />{' '}
            Voice
          </label>
        </fieldset>
        <Field
          label="Channel name"
          value={name}
          required
          maxLength={100}
          error={form.errors['name']}
          onChange={(event) => {
            setName(event.target.value);
          }}
        />
        {categories.length === 0 ? null : (
          <label className="field">
            Category{' '}
            <select
              value={parent}
              onChange={(event) => {
                setParent(event.target.value);
              }}
            >
              <option value="">No category</option>
              {categories.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        )}
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={form.busy || name.trim() === ''}>
            Create Channel
          </button>
        </div>
      </form>
    </Dialog>
  );
}
