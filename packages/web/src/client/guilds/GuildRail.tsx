import { useMemo, useState } from 'react';
import { Link, useLocation } from 'wouter';
import type { APIGuild } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { CreateGuildDialog } from './CreateGuildDialog.js';

const SEGMENTER = new Intl.Segmenter();

/** A guild's initials, shown when it has no icon ("Ada's Lab" → "AL"). */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/\s+/u)
    .filter((w) => w !== '');
  return (
    words
      .slice(0, 3)
      // The first grapheme, so an emoji or an accented letter stays whole.
      .map((w) => SEGMENTER.segment(w)[Symbol.iterator]().next().value?.segment ?? '')
      .join('')
  );
}

function GuildIcon({ guild }: { guild: APIGuild }) {
  if (guild.icon !== null) {
    return <img src={`/icons/${guild.id}/${guild.icon}.png?size=96`} alt="" />;
  }
  return <span aria-hidden="true">{initials(guild.name)}</span>;
}

/** The server list: Home (DMs and friends), each guild, and "Add a Server". */
export function GuildRail() {
  const guilds = useClientState((s) => s.guilds);
  const [location] = useLocation();
  const [creating, setCreating] = useState(false);
  // The order the guilds were joined in is not known; by id is by creation, stable across reloads.
  const list = useMemo(
    () =>
      Object.values(guilds).sort((a, b) => a.id.length - b.id.length || a.id.localeCompare(b.id)),
    [guilds],
  );
  const current = location.split('/')[2];
  return (
    <nav className="guild-rail" aria-label="Servers">
      <ul>
        <li>
          <Link
            href="/channels/@me"
            className="guild-button home"
            aria-label="Direct Messages"
            aria-current={current === '@me' ? 'page' : undefined}
            title="Direct Messages"
          >
            <span aria-hidden="true">DM</span>
          </Link>
        </li>
        {list.map((guild) => (
          <li key={guild.id}>
            <Link
              href={`/channels/${guild.id}`}
              className="guild-button"
              aria-label={guild.name}
              aria-current={current === guild.id ? 'page' : undefined}
              title={guild.name}
            >
              <GuildIcon guild={guild} />
            </Link>
          </li>
        ))}
        <li>
          <button
            type="button"
            className="guild-button add"
            aria-label="Add a Server"
            title="Add a Server"
            onClick={() => {
              setCreating(true);
            }}
          >
            <span aria-hidden="true">+</span>
          </button>
        </li>
      </ul>
      {creating ? (
        <CreateGuildDialog
          onClose={() => {
            setCreating(false);
          }}
        />
      ) : null}
    </nav>
  );
}
