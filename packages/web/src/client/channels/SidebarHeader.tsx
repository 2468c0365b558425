import { useState } from 'react';
import { PermissionFlagsBits, type APIGuild } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { guildPermissions } from '../permissions.js';
import { RoleSettings } from '../guilds/RoleSettings.js';
import { AddAppDialog } from '../guilds/AddAppDialog.js';
import { CreateChannelDialog } from './CreateChannelDialog.js';

type Open = 'roles' | 'channel' | 'app' | null;

/** The permissions the sidebar's settings ask for, as the person holds them server-wide. */
export function useGuildPermissions(guild: APIGuild): bigint {
  const meId = useClientState((s) => s.me?.id ?? null);
  const member = useClientState((s) => (meId === null ? undefined : s.members[guild.id]?.[meId]));
  return meId === null ? 0n : guildPermissions({ guild, member, userId: meId });
}

/**
 * The server's name over its channels, with the settings the person may use (the API checks
 * again): Create Channel (MANAGE_CHANNELS), Add App (MANAGE_GUILD) and Roles (MANAGE_ROLES).
 */
export function SidebarHeader({ guild }: { guild: APIGuild }) {
  const perms = useGuildPermissions(guild);
  const [open, setOpen] = useState<Open>(null);
  const close = () => {
    setOpen(null);
  };
  const offered: { key: Exclude<Open, null>; label: string; needs: bigint }[] = [
    { key: 'channel', label: 'Create Channel', needs: PermissionFlagsBits.ManageChannels },
    { key: 'app', label: 'Add App', needs: PermissionFlagsBits.ManageGuild },
    { key: 'roles', label: 'Roles', needs: PermissionFlagsBits.ManageRoles },
  ];
  return (
    <>
      <div className="sidebar-guild-header">
        <h2 className="sidebar-guild-name">{guild.name}</h2>
        <div className="sidebar-guild-actions">
          {offered
            .filter((item) => (perms & item.needs) !== 0n)
            .map((item) => (
              <button
                key={item.key}
                type="button"
                onClick={() => {
                  setOpen(item.key);
                }}
              >
                {item.label}
              </button>
            ))}
        </div>
      </div>
      {open === 'roles' ? <RoleSettings guildId={guild.id} onClose={close} /> : null}
      {open === 'channel' ? <CreateChannelDialog guild={guild} onClose={close} /> : null}
      {open === 'app' ? <AddAppDialog guild={guild} onClose={close} /> : null}
    </>
  );
}
