import { useRef, useState, useMemo } from 'react';
import type { APIChannel, APIGuild, APIGuildMember, APIUser } from 'discord-api-types/v10';
import { AppsMenuItems } from '../apps/AppsMenu.js';
import { Menu } from '../ui/Menu.js';
import { useClientState } from '../context.js';
import { displayName } from '../messages/names.js';
import { nameStyle } from './roleColor.js';
import { memberActions, type MemberAction } from './moderation.js';
import { MemberActionDialog } from './MemberActionDialog.js';

const ACTION_LABELS: Record<MemberAction, string> = {
  roles: 'Roles',
  timeout: 'Timeout',
  kick: 'Kick',
  ban: 'Ban',
};

const STATUS_LABEL: Record<string, string> = {
  online: 'Online',
  idle: 'Idle',
  dnd: 'Do Not Disturb',
  offline: 'Offline',
};

/** A presence dot with its status as text for screen readers. */
export function PresenceDot({ status }: { status: string }) {
  const known = status in STATUS_LABEL ? status : 'offline';
  return (
    <span
      className={`presence-dot presence-${known}`}
      role="img"
      aria-label={STATUS_LABEL[known]}
    />
  );
}

interface Row {
  user: APIUser;
  member: APIGuildMember;
  name: string;
  status: string;
}

const NO_MEMBERS: Record<string, APIGuildMember> = {};

/** The guild's members, online first, each with a presence dot and a role-coloured name. */
export function MemberList({
  guild,
  channel,
}: {
  guild: APIGuild;
  channel: APIChannel | undefined;
}) {
  const members = useClientState((s) => s.members[guild.id] ?? NO_MEMBERS);
  const users = useClientState((s) => s.users);
  const presences = useClientState((s) => s.presences);
  const meId = useClientState((s) => s.me?.id ?? null);
  const ownStatus = useClientState((s) => s.ownStatus);
  const groups = useMemo(() => {
    const rows: Row[] = [];
    for (const [userId, member] of Object.entries(members)) {
      const user = users[userId] ?? member.user;
      // The current user's own status is the one this client set (others see it through op 3).
      const status =
        userId === meId
          ? ownStatus.replace('invisible', 'offline')
          : (presences[userId]?.status ?? 'offline');
      rows.push({ user, member, name: displayName(user, member), status });
    }
    rows.sort((a, b) => a.name.localeCompare(b.name));
    const online = rows.filter((r) => r.status !== 'offline' && r.status !== 'invisible');
    const offline = rows.filter((r) => r.status === 'offline' || r.status === 'invisible');
    return [
      { title: 'Online', rows: online },
      { title: 'Offline', rows: offline },
    ];
  }, [members, users, presences, meId, ownStatus]);
  return (
    <aside className="member-list" aria-label="Members">
      {groups.map((group) =>
        group.rows.length === 0 ? null : (
          <section key={group.title} aria-label={`${group.title} — ${group.rows.length}`}>
            <h2 className="member-heading">
              {group.title} — {group.rows.length}
            </h2>
            <ul>
              {group.rows.map((row) => (
                <MemberRow key={row.user.id} row={row} guild={guild} channel={channel} />
              ))}
            </ul>
          </section>
        ),
      )}
    </aside>
  );
}

/**
 * One member: a button opening the member's menu (click, right-click or Shift+F10) with the apps'
 * user commands and copying their username.
 */
function MemberRow({
  row,
  guild,
  channel,
}: {
  row: Row;
  guild: APIGuild;
  channel: APIChannel | undefined;
}) {
  const [open, setOpen] = useState(false);
  const [acting, setActing] = useState<MemberAction | null>(null);
  const button = useRef<HTMLButtonElement>(null);
  const meId = useClientState((s) => s.me?.id ?? '');
  const me = useClientState((s) => s.members[guild.id]?.[meId]);
  // Only what the person may do is offered; the API checks again.
  const actions = memberActions({ guild, me, meId, target: row.member, targetId: row.user.id });
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  return (
    <li className="member">
      <button
        ref={button}
        type="button"
        className="member-button"
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => {
          setOpen((o) => !o);
        }}
        onContextMenu={(event) => {
          event.preventDefault();
          setOpen(true);
        }}
        onKeyDown={(event) => {
          if (event.shiftKey && event.key === 'F10') {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        <PresenceDot status={row.status} />
        <span className="member-name" style={nameStyle(guild, row.member)}>
          {row.name}
        </span>
        {row.user.bot === true ? <span className="bot-tag">APP</span> : null}
      </button>
      {open ? (
        <Menu label={`Actions for ${row.name}`} className="member-menu" onClose={close}>
          <button
            type="button"
            role="menuitem"
            onClick={() => {
              // No clipboard outside a secure context: then nothing to copy into.
              Promise.resolve()
                .then(() => navigator.clipboard.writeText(row.user.username))
                .then(close, close);
            }}
          >
            Copy Username
          </button>
          {channel === undefined ? null : (
            <AppsMenuItems
              target={{ kind: 'user', user: row.user }}
              channel={channel}
              onDone={close}
            />
          )}
          {actions.map((action) => (
            <button
              key={action}
              type="button"
              role="menuitem"
              className={action === 'kick' || action === 'ban' ? 'danger-text' : undefined}
              onClick={() => {
                setOpen(false);
                setActing(action);
              }}
            >
              {ACTION_LABELS[action]}
            </button>
          ))}
        </Menu>
      ) : null}
      {acting === null ? null : (
        <MemberActionDialog
          action={acting}
          guild={guild}
          target={row}
          onClose={() => {
            setActing(null);
            button.current?.focus();
          }}
        />
      )}
    </li>
  );
}
