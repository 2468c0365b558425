import { useState } from 'react';
import { OverwriteType, type APIGuild, type APIGuildChannel } from 'discord-api-types/v10';
import { PERMISSION_LABELS, PermissionFlags, type PermissionName } from '@guildhall/protocol';
import { api, errorMessage } from '../../lib/api.js';
import { FormError } from '../../components/Field.js';

/** The permissions a channel's overwrites mean something for, in the platform's order. */
const CHANNEL_PERMISSIONS: readonly PermissionName[] = [
  'VIEW_CHANNEL',
  'MANAGE_CHANNELS',
  'MANAGE_ROLES',
  'CREATE_INSTANT_INVITE',
  'SEND_MESSAGES',
  'SEND_MESSAGES_IN_THREADS',
  'CREATE_PUBLIC_THREADS',
  'EMBED_LINKS',
  'ATTACH_FILES',
  'ADD_REACTIONS',
  'MENTION_EVERYONE',
  'MANAGE_MESSAGES',
  'READ_MESSAGE_HISTORY',
  'USE_APPLICATION_COMMANDS',
  'CONNECT',
  'SPEAK',
  'STREAM',
  'MUTE_MEMBERS',
  'MOVE_MEMBERS',
];

type Setting = 'inherit' | 'allow' | 'deny';

const bitOf = (name: PermissionName): bigint => PermissionFlags[name];

/**
 * A channel's permission overwrites for one role at a time: each permission allowed, denied or
 * left to the role's server-wide permissions. Saving PUTs the overwrite, or DELETEs it when
 * nothing is left set; the channel follows CHANNEL_UPDATE.
 */
export function ChannelPermissions({
  guild,
  channel,
}: {
  guild: APIGuild;
  channel: APIGuildChannel;
}) {
  const roles = [...guild.roles].sort((a, b) => b.position - a.position);
  const [roleId, setRoleId] = useState(guild.id);
  const overwrite = (channel.permission_overwrites ?? []).find((o) => o.id === roleId);
  const [settings, setSettings] = useState(() => settingsOf(overwrite));
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const choose = (id: string) => {
    setRoleId(id);
    setSettings(settingsOf((channel.permission_overwrites ?? []).find((o) => o.id === id)));
    setSaved(false);
  };
  const save = async () => {
    setError(null);
    setSaved(false);
    let allow = 0n;
    let deny = 0n;
    for (const [name, setting] of Object.entries(settings) as [PermissionName, Setting][]) {
      if (setting === 'allow') allow |= bitOf(name);
      if (setting === 'deny') deny |= bitOf(name);
    }
    const path = `/channels/${channel.id}/permissions/${roleId}`;
    try {
      if (allow === 0n && deny === 0n) {
        if (overwrite !== undefined) await api('DELETE', path);
      } else {
        const body = { type: OverwriteType.Role, allow: String(allow), deny: String(deny) };
        await api('PUT', path, { body });
      }
      setSaved(true);
    } catch (e) {
      setError(errorMessage(e));
    }
  };
  return (
    <section className="channel-permissions" aria-label="Permissions">
      <h3>Permissions</h3>
      <FormError message={error} />
      <label className="field">
        Role{' '}
        <select
          value={roleId}
          onChange={(event) => {
            choose(event.target.value);
          }}
        >
          {roles.map((role) => (
            <option key={role.id} value={role.id}>
              {role.id === guild.id ? '@everyone' : role.name}
            </option>
          ))}
        </select>
      </label>
      <div className="permission-grid">
        {CHANNEL_PERMISSIONS.map((name) => (
          <label key={name}>
            {PERMISSION_LABELS[name]}{' '}
            <select
              aria-label={PERMISSION_LABELS[name]}
              value={settings[name] ?? 'inherit'}
              onChange={(event) => {
                setSettings({ ...settings, [name]: event.target.value as Setting });
                setSaved(false);
              }}
            >
              <option value="inherit">/ (from the role)</option>
              <option value="allow">✓ Allow</option>
              <option value="deny">✕ Deny</option>
            </select>
          </label>
        ))}
      </div>
      <div className="dialog-actions">
        {saved ? <span role="status">Permissions saved.</span> : null}
        <button type="button" className="primary" onClick={() => void save()}>
          Save Permissions
        </button>
      </div>
    </section>
  );
}

/** Each channel permission's setting in an overwrite (none: all inherited). */
function settingsOf(
  overwrite: { allow: string; deny: string } | undefined,
): Partial<Record<PermissionName, Setting>> {
  const out: Partial<Record<PermissionName, Setting>> = {};
  if (overwrite === undefined) return out;
  const allow = BigInt(overwrite.allow);
  const deny = BigInt(overwrite.deny);
  for (const name of CHANNEL_PERMISSIONS) {
    const bit = bitOf(name);
    if ((allow & bit) !== 0n) out[name] = 'allow';
    else if ((deny & bit) !== 0n) out[name] = 'deny';
  }
  return out;
}
