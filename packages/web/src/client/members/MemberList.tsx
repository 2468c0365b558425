import { useMemo } from 'react';
import type { APIGuild, APIGuildMember, APIUser } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { displayName } from '../messages/names.js';
import { nameStyle } from './roleColor.js';

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
export function MemberList({ guild }: { guild: APIGuild }) {
  const members = useClientState((s) => s.members[guild.id] ?? NO_MEMBERS);
  const users = useClientState((s) => s.users);
  const presences = useClientState((s) => s.presences);
  const groups = useMemo(() => {
    const rows: Row[] = [];
    for (const [userId, member] of Object.entries(members)) {
      const user = users[userId] ?? member.user;
      const status = presences[userId]?.status ?? 'offline';
      rows.push({ user, member, name: displayName(user, member), status });
    }
    rows.sort((a, b) => a.name.localeCompare(b.name));
    const online = rows.filter((r) => r.status !== 'offline' && r.status !== 'invisible');
    const offline = rows.filter((r) => r.status === 'offline' || r.status === 'invisible');
    return [
      { title: 'Online', rows: online },
      { title: 'Offline', rows: offline },
    ];
  }, [members, users, presences]);
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
                <li key={row.user.id} className="member">
                  <PresenceDot status={row.status} />
                  <span className="member-name" style={nameStyle(guild, row.member)}>
                    {row.name}
                  </span>
                  {row.user.bot === true ? <span className="bot-tag">APP</span> : null}
                </li>
              ))}
            </ul>
          </section>
        ),
      )}
    </aside>
  );
}
