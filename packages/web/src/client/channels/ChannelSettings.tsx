import { useState } from 'react';
import {
  ChannelType,
  type APIChannel,
  type APIGuild,
  type APIGuildChannel,
} from 'discord-api-types/v10';
import { useLocation } from 'wouter';
import { api } from '../../lib/api.js';
import { useApiForm } from '../../components/useApiForm.js';
import { Dialog } from '../../components/Dialog.js';
import { Field, FormError } from '../../components/Field.js';
import { ChannelPermissions } from './ChannelPermissions.js';

/**
 * A channel's settings for a person with MANAGE_CHANNELS (the API checks again): its name and
 * topic (PATCH /channels/{id}), its permission overwrites per role, and deleting it. The sidebar
 * follows CHANNEL_UPDATE and CHANNEL_DELETE.
 */
export function ChannelSettings({
  guild,
  channel,
  onClose,
}: {
  guild: APIGuild;
  channel: APIGuildChannel;
  onClose: () => void;
}) {
  const [, navigate] = useLocation();
  const text =
    channel.type === ChannelType.GuildText || channel.type === ChannelType.GuildAnnouncement;
  const [name, setName] = useState(channel.name);
  const [topic, setTopic] = useState(
    'topic' in channel && typeof channel.topic === 'string' ? channel.topic : '',
  );
  const form = useApiForm();
  const save = () =>
    form.submit(
      () =>
        api<APIChannel>('PATCH', `/channels/${channel.id}`, {
          body: { name, ...(text ? { topic } : {}) },
        }),
      { onSuccess: onClose },
    );
  const remove = () =>
    form.submit(() => api('DELETE', `/channels/${channel.id}`), {
      onSuccess: () => {
        onClose();
        navigate(`/channels/${guild.id}`);
      },
    });
  return (
    <Dialog title={`Edit ${channel.name}`} onClose={onClose} className="channel-settings">
      <form
        aria-label="Overview"
        onSubmit={(event) => {
          event.preventDefault();
          void save();
        }}
      >
        <FormError message={form.summary(['name', 'topic'])} />
        <Field
          label="Channel name"
          value={name}
          error={form.errors['name']}
          required
          maxLength={100}
          onChange={(event) => {
            setName(event.target.value);
          }}
        />
        {text ? (
          <Field
            label="Channel topic"
            value={topic}
            error={form.errors['topic']}
            maxLength={1024}
            onChange={(event) => {
              setTopic(event.target.value);
            }}
          />
        ) : null}
        <div className="dialog-actions">
          <button
            type="button"
            className="danger"
            disabled={form.busy}
            onClick={() => void remove()}
          >
            Delete Channel
          </button>
          <button type="submit" className="primary" disabled={form.busy}>
            Save Changes
          </button>
        </div>
      </form>
      <ChannelPermissions guild={guild} channel={channel} />
    </Dialog>
  );
}
