import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import type { APIChannel, APIGuild } from 'discord-api-types/v10';
import { useClient, useClientState } from '../context.js';
import { Op } from '../../lib/gateway.js';
import { displayName } from '../messages/names.js';
import { groupChannels, isVoice } from './order.js';
import { VoiceStatusEditor } from './VoiceStatusEditor.js';
import { SpeakerIcon } from '../ui/icons.js';
import { ActivityLauncher, RunningActivities } from '../activities/ActivityLauncher.js';

const EMPTY: string[] = [];

/** A guild's channels: categories (collapsible), text channels, voice channels and who is in them. */
export function ChannelSidebar({
  guild,
  channelId,
}: {
  guild: APIGuild;
  channelId: string | null;
}) {
  const ids = useClientState((s) => s.guildChannelIds[guild.id] ?? EMPTY);
  const channels = useClientState((s) => s.channels);
  const [collapsed, setCollapsed] = useState<Record<string, boolean>>({});
  const groups = useMemo(
    () =>
      groupChannels(ids.map((id) => channels[id]).filter((c): c is APIChannel => c !== undefined)),
    [ids, channels],
  );
  return (
    <nav className="channel-sidebar" aria-label="Channels">
      <h2 className="sidebar-guild-name">{guild.name}</h2>
      {groups.map((group) => {
        const key = group.category?.id ?? '';
        const isCollapsed = collapsed[key] === true;
        // A collapsed category still shows the open channel, as the platform's client does.
        const shown = isCollapsed
          ? group.channels.filter((c) => c.id === channelId)
          : group.channels;
        const listId = `category-${key}`;
        return (
          <section key={key} className="channel-group">
            {group.category === null ? null : (
              <h3 className="category">
                <button
                  type="button"
                  aria-expanded={!isCollapsed}
                  aria-controls={listId}
                  onClick={() => {
                    setCollapsed((c) => ({ ...c, [key]: !isCollapsed }));
                  }}
                >
                  <span aria-hidden="true">{isCollapsed ? '▸' : '▾'}</span> {group.category.name}
                </button>
              </h3>
            )}
            <ul className="channel-list" id={listId}>
              {shown.map((channel) =>
                isVoice(channel) ? (
                  <VoiceChannelItem key={channel.id} guild={guild} channel={channel} />
                ) : (
                  <li key={channel.id}>
                    <Link
                      href={`/channels/${guild.id}/${channel.id}`}
                      className="channel-link"
                      aria-label={`${channel.name ?? ''} (text channel)`}
                      aria-current={channel.id === channelId ? 'page' : undefined}
                    >
                      <span aria-hidden="true" className="channel-icon">
                        #
                      </span>
                      {channel.name}
                    </Link>
                  </li>
                ),
              )}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}

const NO_VOICE = {};

/** A voice channel: join or leave it (gateway op 4), its status, who is connected. */
function VoiceChannelItem({ guild, channel }: { guild: APIGuild; channel: APIChannel }) {
  const { gateway } = useClient();
  const voice = useClientState((s) => s.voiceStates[guild.id] ?? NO_VOICE) as Record<
    string,
    { channel_id: string | null; self_mute: boolean; self_deaf: boolean }
  >;
  const status = useClientState((s) => s.voiceStatuses[channel.id] ?? null);
  const members = useClientState((s) => s.members[guild.id]);
  const users = useClientState((s) => s.users);
  const meId = useClientState((s) => s.me?.id ?? null);
  const [editing, setEditing] = useState(false);
  const connected = Object.entries(voice)
    .filter(([, state]) => state.channel_id === channel.id)
    .map(([userId, state]) => ({ userId, state }));
  const joined = meId !== null && voice[meId]?.channel_id === channel.id;
  const toggle = () => {
    gateway.send(Op.VoiceStateUpdate, {
      guild_id: guild.id,
      channel_id: joined ? null : channel.id,
      self_mute: false,
      self_deaf: false,
    });
  };
  return (
    <li className="voice-channel">
      <button
        type="button"
        className="channel-link"
        aria-label={`${channel.name ?? ''} (voice channel)`}
        aria-pressed={joined}
        title={joined ? 'Disconnect' : 'Join voice'}
        onClick={toggle}
      >
        <span aria-hidden="true" className="channel-icon">
          <SpeakerIcon />
        </span>
        {channel.name}
      </button>
      {status === null || status === '' ? null : <p className="voice-status">{status}</p>}
      <button
        type="button"
        className="link-button voice-status-edit"
        aria-label={`Set status of ${channel.name ?? ''}`}
        onClick={() => {
          setEditing(true);
        }}
      >
        Set status
      </button>
      <ActivityLauncher channelId={channel.id} label={`Activities in ${channel.name ?? ''}`} />
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
      {connected.length === 0 ? null : (
        <ul className="voice-members" aria-label={`Connected to ${channel.name ?? ''}`}>
          {connected.map(({ userId, state }) => (
            <li key={userId}>
              {displayName(users[userId], members?.[userId])}
              {state.self_mute ? <span className="voice-flag"> (muted)</span> : null}
              {state.self_deaf ? <span className="voice-flag"> (deafened)</span> : null}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}
