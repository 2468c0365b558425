import { useEffect, useState, type SyntheticEvent } from 'react';
import type { APIGuild, APIGuildMember, APIUser } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { Dialog } from '../../components/Dialog.js';
import { Field, FormError } from '../../components/Field.js';
import { useClientState } from '../context.js';
import { assignableRoles, BAN_HISTORY, TIMEOUTS, type MemberAction } from './moderation.js';

interface Target {
  user: APIUser;
  member: APIGuildMember;
  name: string;
}

const TITLES: Record<MemberAction, (name: string) => string> = {
  roles: (name) => `Roles of ${name}`,
  timeout: (name) => `Timeout ${name}`,
  kick: (name) => `Kick ${name}`,
  ban: (name) => `Ban ${name}`,
};

/**
 * One moderation action on a member, as a dialog: their roles (each box a request), a timeout,
 * a kick or a ban with its reason (the audit log's). The member list follows the gateway's
 * GUILD_MEMBER_UPDATE and GUILD_MEMBER_REMOVE.
 */
export function MemberActionDialog({
  action,
  guild,
  target,
  onClose,
}: {
  action: MemberAction;
  guild: APIGuild;
  target: Target;
  onClose: () => void;
}) {
  return (
    <Dialog title={TITLES[action](target.name)} onClose={onClose}>
      {action === 'roles' ? (
        <MemberRoles guild={guild} target={target} onDone={onClose} />
      ) : (
        <Sanction action={action} guild={guild} target={target} onDone={onClose} />
      )}
    </Dialog>
  );
}

/** The roles the person may give or take, each checkbox a PUT or DELETE of that role. */
function MemberRoles({
  guild,
  target,
  onDone,
}: {
  guild: APIGuild;
  target: Target;
  onDone: () => void;
}) {
  const meId = useClientState((s) => s.me?.id ?? '');
  const me = useClientState((s) => s.members[guild.id]?.[meId]);
  const held = useClientState((s) => s.members[guild.id]?.[target.user.id]?.roles ?? []);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  // The box shows what was asked at once; the member's roles (the gateway's
  // GUILD_MEMBER_UPDATE) take over once they agree, and a refusal puts the box back.
  const [asked, setAsked] = useState<{ roleId: string; on: boolean } | null>(null);
  const agreed = asked !== null && held.includes(asked.roleId) === asked.on;
  useEffect(() => {
    if (agreed) setAsked(null);
  }, [agreed]);
  const toggle = (roleId: string, on: boolean) => {
    // One request at a time; the box stays focusable (a disabled one would drop the focus).
    if (busy !== null) return;
    setError(null);
    setBusy(roleId);
    setAsked({ roleId, on });
    api(on ? 'PUT' : 'DELETE', `/guilds/${guild.id}/members/${target.user.id}/roles/${roleId}`)
      .catch((e: unknown) => {
        setAsked(null);
        setError(errorMessage(e));
      })
      .finally(() => {
        setBusy(null);
      });
  };
  const roles = assignableRoles(guild, me, meId);
  return (
    <>
      <FormError message={error} />
      {roles.length === 0 ? <p>There are no roles you can give.</p> : null}
      <fieldset className="permission-grid">
        <legend>Roles</legend>
        {roles.map((role) => (
          <label key={role.id}>
            <input
              type="checkbox"
              checked={asked?.roleId === role.id ? asked.on : held.includes(role.id)}
              aria-busy={busy === role.id}
              onChange={(event) => {
                toggle(role.id, event.target.checked);
              }}
            />{' '}
            {role.name}
          </label>
        ))}
      </fieldset>
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onDone}>
          Done
        </button>
      </div>
    </>
  );
}

/** A timeout, kick or ban: its options, a reason, and the one request that does it. */
function Sanction({
  action,
  guild,
  target,
  onDone,
}: {
  action: Exclude<MemberAction, 'roles'>;
  guild: APIGuild;
  target: Target;
  onDone: () => void;
}) {
  const [reason, setReason] = useState('');
  const [seconds, setSeconds] = useState(action === 'ban' ? 0 : 60);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const until = target.member.communication_disabled_until;
  const timedOut = until != null && Date.parse(until) > Date.now();
  const member = `/guilds/${guild.id}/members/${target.user.id}`;
  const perform = (lift: boolean) => {
    const options = reason === '' ? {} : { reason };
    if (action === 'kick') return api('DELETE', member, options);
    if (action === 'ban')
      return api('PUT', `/guilds/${guild.id}/bans/${target.user.id}`, {
        ...options,
        body: { delete_message_seconds: seconds },
      });
    const end = lift ? null : new Date(Date.now() + seconds * 1000).toISOString();
    return api('PATCH', member, { ...options, body: { communication_disabled_until: end } });
  };
  const submit = (lift: boolean) => (event?: SyntheticEvent) => {
    event?.preventDefault();
    setBusy(true);
    setError(null);
    perform(lift).then(onDone, (e: unknown) => {
      setError(errorMessage(e));
      setBusy(false);
    });
  };
  const choices = action === 'ban' ? BAN_HISTORY : TIMEOUTS;
  return (
    <form onSubmit={submit(false)}>
      <FormError message={error} />
      {action === 'kick' ? null : (
        <label className="field">
          {action === 'ban' ? 'Delete message history' : 'Duration'}{' '}
          <select
            value={seconds}
            onChange={(event) => {
              setSeconds(Number(event.target.value));
            }}
          >
            {choices.map((choice) => (
              <option key={choice.seconds} value={choice.seconds}>
                {choice.label}
              </option>
            ))}
          </select>
        </label>
      )}
      <Field
        label="Reason"
        value={reason}
        maxLength={512}
        onChange={(event) => {
          setReason(event.target.value);
        }}
      />
      <div className="dialog-actions">
        {action === 'timeout' && timedOut ? (
          <button type="button" disabled={busy} onClick={submit(true)}>
            Remove Timeout
          </button>
        ) : null}
        <button type="submit" className="danger" disabled={busy}>
          {action === 'timeout' ? 'Timeout' : action === 'kick' ? 'Kick' : 'Ban'}
        </button>
      </div>
    </form>
  );
}
