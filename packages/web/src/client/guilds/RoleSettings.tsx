import { useState } from 'react';
import type { APIGuild, APIRole } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { Dialog } from '../../components/Dialog.js';
import { Field, FormError } from '../../components/Field.js';
import { PERMISSIONS, permissionNames, permissionsValue } from '../../portal/permissions.js';
import { useClientState } from '../context.js';

/** "#5865f2" from a role's colour integer; 0 (no colour) shows as the default grey. */
const hex = (color: number) => `#${(color === 0 ? 0x99aab5 : color).toString(16).padStart(6, '0')}`;

/**
 * A server's roles, for a person who may manage them (MANAGE_ROLES; the API checks again):
 * create one, rename it, give it a colour and permissions, move it up or down, delete it. Every change is a
 * request to the API; the list follows the gateway's GUILD_ROLE_* events.
 */
export function RoleSettings({ guildId, onClose }: { guildId: string; onClose: () => void }) {
  const guild = useClientState((s) => s.guilds[guildId]);
  const [editing, setEditing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  if (guild === undefined) return null;
  // Highest first, as the platform lists them; @everyone last.
  const roles = [...guild.roles]
    .filter((role) => role.id !== guild.id)
    .sort((a, b) => b.position - a.position);
  const everyone = guild.roles.find((role) => role.id === guild.id);

  const run = (action: () => Promise<unknown>) => {
    setError(null);
    action().catch((e: unknown) => {
      setError(errorMessage(e));
    });
  };
  const move = (role: APIRole, step: 1 | -1) => {
    const at = roles.indexOf(role);
    const other = roles[at - step];
    if (other === undefined) return;
    run(() =>
      api('PATCH', `/guilds/${guild.id}/roles`, {
        body: [
          { id: role.id, position: other.position },
          { id: other.id, position: role.position },
        ],
      }),
    );
  };
  const create = () => {
    run(async () => {
      const role = await api<APIRole>('POST', `/guilds/${guild.id}/roles`, {
        body: { name: 'new role' },
      });
      setEditing(role.id);
    });
  };
  const editedRole = guild.roles.find((role) => role.id === editing);

  return (
    <Dialog title="Roles" description={`The roles of ${guild.name}.`} onClose={onClose}>
      <FormError message={error} />
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={create}>
          Create Role
        </button>
      </div>
      <ol className="role-list" aria-label="Roles, highest first">
        {[...roles, ...(everyone === undefined ? [] : [everyone])].map((role, i) => (
          <li key={role.id} className="role-row">
            <span
              className="role-swatch"
              style={{ background: hex(role.colors.primary_color) }}
              aria-hidden
            />
            <span className="role-name">{role.name}</span>
            {role.id === guild.id ? null : (
              <>
                <button
                  type="button"
                  aria-label={`Move ${role.name} up`}
                  disabled={i === 0}
                  onClick={() => {
                    move(role, 1);
                  }}
                >
                  ↑
                </button>
                <button
                  type="button"
                  aria-label={`Move ${role.name} down`}
                  disabled={i === roles.length - 1}
                  onClick={() => {
                    move(role, -1);
                  }}
                >
                  ↓
                </button>
              </>
            )}
            <button
              type="button"
              aria-label={`Edit ${role.name}`}
              onClick={() => {
                setEditing(role.id);
              }}
            >
              Edit
            </button>
          </li>
        ))}
      </ol>
      {editedRole === undefined ? null : (
        <RoleEditor
          key={editedRole.id}
          guild={guild}
          role={editedRole}
          onDone={() => {
            setEditing(null);
          }}
        />
      )}
    </Dialog>
  );
}

/** One role's name, colour and permissions, saved with PATCH /guilds/{id}/roles/{role}. */
function RoleEditor({
  guild,
  role,
  onDone,
}: {
  guild: APIGuild;
  role: APIRole;
  onDone: () => void;
}) {
  const [name, setName] = useState(role.name);
  const [color, setColor] = useState(hex(role.colors.primary_color));
  const [granted, setGranted] = useState(() => permissionNames(role.permissions));
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const everyone = role.id === guild.id;
  const save = async () => {
    setBusy(true);
    setError(null);
    try {
      await api('PATCH', `/guilds/${guild.id}/roles/${role.id}`, {
        body: {
          ...(everyone
            ? {}
            : { name, colors: { primary_color: Number.parseInt(color.slice(1), 16) } }),
          permissions: permissionsValue(granted),
        },
      });
      onDone();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  // Deleting is one request; the list drops it on GUILD_ROLE_DELETE.
  const remove = async () => {
    setBusy(true);
    setError(null);
    try {
      await api('DELETE', `/guilds/${guild.id}/roles/${role.id}`);
      onDone();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <form
      className="role-editor"
      aria-label={`Edit ${role.name}`}
      onSubmit={(event) => {
        event.preventDefault();
        void save();
      }}
    >
      <FormError message={error} />
      {everyone ? null : (
        <>
          <Field
            label="Role name"
            value={name}
            onChange={(event) => {
              setName(event.target.value);
            }}
          />
          <label className="role-color">
            Role colour{' '}
            <input
              type="color"
              value={color}
              onChange={(event) => {
                setColor(event.target.value);
              }}
            />
          </label>
        </>
      )}
      <fieldset className="permission-grid">
        <legend>Permissions</legend>
        {PERMISSIONS.map((permission) => (
          <label key={permission.name}>
            <input
              type="checkbox"
              checked={granted.has(permission.name)}
              onChange={(event) => {
                const next = new Set(granted);
                if (event.target.checked) next.add(permission.name);
                else next.delete(permission.name);
                setGranted(next);
              }}
            />{' '}
            {permission.label}
          </label>
        ))}
      </fieldset>
      <div className="dialog-actions">
        {everyone || role.managed ? null : (
          <button type="button" className="danger" disabled={busy} onClick={() => void remove()}>
            Delete Role
          </button>
        )}
        <button type="button" onClick={onDone}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy}>
          Save Changes
        </button>
      </div>
    </form>
  );
}
