import { useMemo, useState } from 'react';
import { Link } from 'wouter';
import { PermissionFlagsBits, type APIChannel, type APIGuild } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { groupChannels, isVoice } from './order.js';
import { VoiceChannelItem } from '../voice/VoiceChannelItem.js';
import { SidebarHeader, useGuildPermissions } from './SidebarHeader.js';
import { ChannelEditButton } from './ChannelEditButton.js';

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
  // Only what the person may do is offered; the API checks again.
  const manageChannels = (useGuildPermissions(guild) & PermissionFlagsBits.ManageChannels) !== 0n;
  const groups = useMemo(
    () =>
      groupChannels(ids.map((id) => channels[id]).filter((c): c is APIChannel => c !== undefined)),
    [ids, channels],
  );
  return (
    <nav className="channel-sidebar" aria-label="Channels">
      <SidebarHeader guild={guild} />
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
                  <VoiceChannelItem
                    key={channel.id}
                    guild={guild}
                    channel={channel}
                    settings={
                      manageChannels ? <ChannelEditButton guild={guild} channel={channel} /> : null
                    }
                  />
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
                    {manageChannels ? <ChannelEditButton guild={guild} channel={channel} /> : null}
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
