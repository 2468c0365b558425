import { useState } from 'react';
import type { APIChannel, APIGuild } from 'discord-api-types/v10';
import { ChannelSettings } from './ChannelSettings.js';

/** A channel's "Edit" button and its settings dialog; shown to those with MANAGE_CHANNELS. */
export function ChannelEditButton({ guild, channel }: { guild: APIGuild; channel: APIChannel }) {
  const [open, setOpen] = useState(false);
  if (!('guild_id' in channel)) return null;
  return (
    <>
      <button
        type="button"
        className="link-button channel-edit"
        aria-label={`Edit ${channel.name}`}
        title="Edit Channel"
        onClick={() => {
          setOpen(true);
        }}
      >
        ⚙
      </button>
      {open ? (
        <ChannelSettings
          guild={guild}
          channel={channel}
          onClose={() => {
            setOpen(false);
          }}
        />
      ) : null}
    </>
  );
}
