import { useState, type ReactNode } from 'react';
import type { APIChannel, APIGuild } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { SpeakerIcon } from '../ui/icons.js';
import { ActivityLauncher, RunningActivities } from '../activities/ActivityLauncher.js';
import { VoiceStatusEditor } from '../channels/VoiceStatusEditor.js';
import { CallTimer } from './CallTimer.js';
import { VoiceMembers } from './VoiceMembers.js';
import { VoiceUnavailableDialog } from './VoiceUnavailableDialog.js';

/**
 * A voice or stage channel in the sidebar: how long its call has gone on, its status, who is
 * connected, and its activities. The browser does not join the call (docs/web.md#voice):
 * the channel's button says why instead of sending op 4.
 */
export function VoiceChannelItem({
  guild,
  channel,
  settings,
}: {
  guild: APIGuild;
  channel: APIChannel;
  /** The channel's Edit button, for those who may edit it. */
  settings?: ReactNode;
}) {
  const status = useClientState((s) => s.voiceStatuses[channel.id] ?? null);
  const [editing, setEditing] = useState(false);
  const [explaining, setExplaining] = useState(false);
  const name = channel.name ?? '';
  return (
    <li className="voice-channel">
      <button
        type="button"
        className="channel-link"
        aria-label={`${name} (voice channel)`}
        aria-haspopup="dialog"
        title="Why the browser cannot join this call"
        onClick={() => {
          setExplaining(true);
        }}
      >
        <span aria-hidden="true" className="channel-icon">
          <SpeakerIcon />
        </span>
        {channel.name}
      </button>
      {settings}
      <CallTimer channelId={channel.id} />
      {status === null || status === '' ? null : <p className="voice-status">{status}</p>}
      <VoiceMembers guildId={guild.id} channel={channel} />
      <button
        type="button"
        className="link-button voice-status-edit"
        aria-label={`Set status of ${name}`}
        onClick={() => {
          setEditing(true);
        }}
      >
        Set status
      </button>
      <ActivityLauncher channelId={channel.id} label={`Activities in ${name}`} />
      <RunningActivities channelId={channel.id} />
      {editing ? (
        <VoiceStatusEditor
          channel={channel}
          status={status}
          onClose={() => {
            setEditing(false);
          }}
        />
      ) : null}
      {explaining ? (
        <VoiceUnavailableDialog
          channel={channel}
          onClose={() => {
            setExplaining(false);
          }}
        />
      ) : null}
    </li>
  );
}
