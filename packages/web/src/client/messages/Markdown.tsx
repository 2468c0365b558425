import { memo, useMemo, useState, type ReactNode } from 'react';
import { Link } from 'wouter';
import { useClientState } from '../context.js';
import { nameStyle } from '../members/roleColor.js';
import { parseMarkdown, type MdNode } from './markdown.js';
import { displayName } from './names.js';

const TIMESTAMP_STYLES: Record<string, Intl.DateTimeFormatOptions> = {
  t: { timeStyle: 'short' },
  T: { timeStyle: 'medium' },
  d: { dateStyle: 'short' },
  D: { dateStyle: 'long' },
  f: { dateStyle: 'long', timeStyle: 'short' },
  F: { dateStyle: 'full', timeStyle: 'short' },
};

function relative(ms: number, now: number): string {
  const format = new Intl.RelativeTimeFormat(undefined, { numeric: 'auto' });
  const seconds = Math.round((ms - now) / 1000);
  const units: [Intl.RelativeTimeFormatUnit, number][] = [
    ['year', 31_536_000],
    ['month', 2_592_000],
    ['day', 86_400],
    ['hour', 3_600],
    ['minute', 60],
  ];
  for (const [unit, size] of units) {
    if (Math.abs(seconds) >= size) return format.format(Math.trunc(seconds / size), unit);
  }
  return format.format(seconds, 'second');
}

function Timestamp({ seconds, style }: { seconds: number; style: string }) {
  const ms = seconds * 1000;
  const date = new Date(ms);
  if (Number.isNaN(date.getTime())) return <>{`<t:${seconds}>`}</>;
  const text =
    style === 'R'
      ? relative(ms, Date.now())
      : new Intl.DateTimeFormat(undefined, TIMESTAMP_STYLES[style] ?? TIMESTAMP_STYLES['f']).format(
          date,
        );
  return (
    <time className="md-timestamp" dateTime={date.toISOString()} title={date.toString()}>
      {text}
    </time>
  );
}

function Spoiler({ children }: { children: ReactNode }) {
  const [shown, setShown] = useState(false);
  if (shown) return <span className="md-spoiler shown">{children}</span>;
  return (
    <span
      className="md-spoiler"
      role="button"
      tabIndex={0}
      aria-label="Spoiler, reveal"
      onClick={() => {
        setShown(true);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Enter' || event.key === ' ') {
          event.preventDefault();
          setShown(true);
        }
      }}
    >
      <span aria-hidden="true">{children}</span>
    </span>
  );
}

function UserMention({ id, guildId }: { id: string; guildId: string | null }) {
  const user = useClientState((s) => s.users[id]);
  const member = useClientState((s) => (guildId === null ? undefined : s.members[guildId]?.[id]));
  return (
    <span className="mention">
      @{user === undefined ? 'unknown-user' : displayName(user, member)}
    </span>
  );
}

function RoleMention({ id, guildId }: { id: string; guildId: string | null }) {
  const guild = useClientState((s) => (guildId === null ? undefined : s.guilds[guildId]));
  const role = guild?.roles.find((r) => r.id === id);
  if (role === undefined || guild === undefined)
    return <span className="mention">@unknown-role</span>;
  return (
    <span className="mention role-mention" style={nameStyle(guild, { roles: [role.id] })}>
      @{role.name}
    </span>
  );
}

function ChannelMention({ id }: { id: string }) {
  const channel = useClientState((s) => s.channels[id]);
  const guildId = channel !== undefined && 'guild_id' in channel ? channel.guild_id : undefined;
  if (channel === undefined || guildId === undefined) {
    return <span className="mention">#unknown-channel</span>;
  }
  return (
    <Link href={`/channels/${guildId}/${id}`} className="mention">
      #{channel.name}
    </Link>
  );
}

function render(nodes: MdNode[], guildId: string | null): ReactNode[] {
  return nodes.map((node, i) => {
    switch (node.type) {
      case 'text':
        return node.text;
      case 'br':
        return <br key={i} />;
      case 'strong':
        return <strong key={i}>{render(node.children, guildId)}</strong>;
      case 'em':
        return <em key={i}>{render(node.children, guildId)}</em>;
      case 'u':
        return <u key={i}>{render(node.children, guildId)}</u>;
      case 's':
        return <s key={i}>{render(node.children, guildId)}</s>;
      case 'spoiler':
        return <Spoiler key={i}>{render(node.children, guildId)}</Spoiler>;
      case 'inlineCode':
        return (
          <code key={i} className="md-code">
            {node.text}
          </code>
        );
      case 'codeBlock':
        return (
          <pre key={i} className="md-codeblock" data-lang={node.lang ?? undefined}>
            <code>{node.text}</code>
          </pre>
        );
      case 'blockquote':
        return (
          <blockquote key={i} className="md-quote">
            {render(node.children, guildId)}
          </blockquote>
        );
      case 'heading': {
        const Tag = (['h3', 'h4', 'h5'] as const)[node.level - 1] ?? 'h3';
        return (
          <Tag key={i} className={`md-h${node.level}`}>
            {render(node.children, guildId)}
          </Tag>
        );
      }
      case 'subtext':
        return (
          <small key={i} className="md-subtext">
            {render(node.children, guildId)}
          </small>
        );
      case 'link':
        return (
          <a key={i} href={node.url} target="_blank" rel="noopener noreferrer" title={node.url}>
            {render(node.children, guildId)}
          </a>
        );
      case 'userMention':
        return <UserMention key={i} id={node.id} guildId={guildId} />;
      case 'roleMention':
        return <RoleMention key={i} id={node.id} guildId={guildId} />;
      case 'channelMention':
        return <ChannelMention key={i} id={node.id} />;
      case 'everyone':
        return (
          <span key={i} className="mention">
            @{node.which}
          </span>
        );
      case 'emoji':
        return (
          <img
            key={i}
            className="emoji"
            src={`/emojis/${node.id}.${node.animated ? 'gif' : 'png'}?size=48`}
            alt={`:${node.name}:`}
            title={`:${node.name}:`}
          />
        );
      case 'timestamp':
        return <Timestamp key={i} seconds={node.seconds} style={node.style} />;
      default:
        return null;
    }
  });
}

/** A message's content rendered as the platform renders it; all user text stays text. */
export const Markdown = memo(function Markdown({
  content,
  guildId,
}: {
  content: string;
  guildId: string | null;
}) {
  const nodes = useMemo(() => parseMarkdown(content), [content]);
  return <>{render(nodes, guildId)}</>;
});
