import { memo, useRef, useState, type KeyboardEvent } from 'react';
import {
  MessageType,
  type APIChannel,
  type APIGuild,
  type APIGuildMember,
  type APIMessage,
} from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { useClient, useClientState } from '../context.js';
import { ActivityInvite } from '../activities/ActivityInvite.js';
import { InteractionHeader, MessageComponents } from '../apps/MessageAppParts.js';
import { nameStyle } from '../members/roleColor.js';
import { Attachments } from './Attachments.js';
import { Embeds } from './Embeds.js';
import { EmojiPicker } from './EmojiPicker.js';
import { Markdown } from './Markdown.js';
import { MessageMenu, type MessageAbilities } from './MessageMenu.js';
import { displayName } from './names.js';
import { Reactions, toggleReaction } from './Reactions.js';
import { ReplyPreview } from './ReplyPreview.js';

const TIME = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

const SYSTEM_TEXT: Partial<Record<MessageType, (author: string) => string>> = {
  [MessageType.UserJoin]: (author) => `${author} joined the server.`,
  [MessageType.ChannelPinnedMessage]: (author) => `${author} pinned a message to this channel.`,
  [MessageType.GuildBoost]: (author) => `${author} boosted the server.`,
};

/** The line a system message shows instead of content (joins, pins). */
function systemText(message: APIMessage, author: string): string | null {
  return SYSTEM_TEXT[message.type]?.(author) ?? null;
}

/** One message: author, time, content, files, reactions, apps' parts, and its actions. */
export const Message = memo(function Message({
  message,
  channel,
  guild,
  member,
  abilities,
  continued = false,
  active = true,
  onActivate,
}: {
  /** The list's current message: the one Tab reaches, whose actions are in the Tab order. */
  active?: boolean;
  onActivate?: (id: string) => void;
  message: APIMessage;
  /** Part of a group by the same author: the author line is only for screen readers. */
  continued?: boolean;
  channel: APIChannel;
  guild: APIGuild | undefined;
  member: APIGuildMember | undefined;
  abilities: MessageAbilities;
}) {
  const { store } = useClient();
  const [editing, setEditing] = useState(false);
  const [picking, setPicking] = useState(false);
  const [menuOpen, setMenuOpen] = useState(false);
  const reactButton = useRef<HTMLButtonElement>(null);
  const moreButton = useRef<HTMLButtonElement>(null);
  const author = displayName(message.author, member);
  const system = systemText(message, author);
  const edited = message.edited_timestamp !== null;
  const meId = useClientState((s) => s.me?.id ?? null);
  const myRoles = useClientState((s) =>
    guild === undefined || s.me === null ? undefined : s.members[guild.id]?.[s.me.id]?.roles,
  );
  // Highlighted as the platform does: a mention of the user, of one of their roles, @everyone.
  const mentionsMe =
    message.mention_everyone ||
    message.mentions.some((u) => u.id === meId) ||
    message.mention_roles.some((id) => myRoles?.includes(id) === true);

  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    if (event.target !== event.currentTarget) return;
    // Shift+F10 or the context-menu key opens the message's menu, as a right-click does.
    if ((event.shiftKey && event.key === 'F10') || event.key === 'ContextMenu') {
      event.preventDefault();
      setMenuOpen(true);
      return;
    }
    // The list is one stop in the Tab order: arrow keys, Home and End move between messages.
    const articles = [
      ...(event.currentTarget
        .closest('[role="log"]')
        ?.querySelectorAll<HTMLElement>('article[data-message-id]') ?? []),
    ];
    const index = articles.indexOf(event.currentTarget);
    const target = {
      ArrowUp: articles[index - 1],
      ArrowDown: articles[index + 1],
      Home: articles[0],
      End: articles[articles.length - 1],
    }[event.key];
    if (target !== undefined) {
      event.preventDefault();
      target.focus();
    }
  };

  return (
    <article
      className={`message${editing ? ' editing' : ''}${continued ? ' continued' : ''}${
        mentionsMe ? ' mentioned' : ''
      }`}
      aria-label={author}
      tabIndex={active ? 0 : -1}
      data-message-id={message.id}
      onKeyDown={onKeyDown}
      onFocus={() => {
        onActivate?.(message.id);
      }}
      onContextMenu={(event) => {
        if (editing) return;
        event.preventDefault();
        setMenuOpen(true);
      }}
    >
      <ReplyPreview message={message} guild={guild} />
      <InteractionHeader message={message} />
      <header className="message-header">
        <span className="message-author" style={nameStyle(guild, member)}>
          {author}
        </span>
        {message.author.bot === true ? <span className="bot-tag">APP</span> : null}
        <time className="message-time" dateTime={message.timestamp}>
          {TIME.format(new Date(message.timestamp))}
        </time>
        {message.pinned ? <span className="message-flag">pinned</span> : null}
      </header>
      {system !== null ? (
        <p className="message-system">{system}</p>
      ) : editing ? (
        <EditBox
          message={message}
          onDone={() => {
            setEditing(false);
          }}
        />
      ) : message.content === '' ? null : (
        <div className="message-content">
          <Markdown content={message.content} guildId={guild?.id ?? null} />
          {edited ? (
            <span className="message-edited" title={message.edited_timestamp ?? undefined}>
              {' '}
              (edited)
            </span>
          ) : null}
        </div>
      )}
      <Attachments attachments={message.attachments} />
      <Embeds embeds={message.embeds} guildId={guild?.id ?? null} />
      <ActivityInvite message={message} />
      <Reactions message={message} />
      <MessageComponents message={message} channel={channel} />
      <div
        className="message-actions"
        role="toolbar"
        aria-label={`Actions for ${author}'s message`}
      >
        {abilities.react ? (
          <button
            ref={reactButton}
            type="button"
            tabIndex={active ? 0 : -1}
            aria-label="Add Reaction"
            title="Add Reaction"
            aria-expanded={picking}
            onClick={() => {
              setPicking((p) => !p);
            }}
          >
            <span aria-hidden="true">☺+</span>
          </button>
        ) : null}
        {abilities.own && system === null ? (
          <button
            type="button"
            tabIndex={active ? 0 : -1}
            aria-label="Edit"
            title="Edit"
            onClick={() => {
              setEditing(true);
            }}
          >
            <span aria-hidden="true">✎</span>
          </button>
        ) : null}
        <button
          ref={moreButton}
          type="button"
          tabIndex={active ? 0 : -1}
          aria-label="More"
          title="More"
          aria-haspopup="menu"
          aria-expanded={menuOpen}
          onClick={() => {
            setMenuOpen((o) => !o);
          }}
        >
          <span aria-hidden="true">⋯</span>
        </button>
      </div>
      {picking ? (
        <EmojiPicker
          onPick={(emoji) => {
            setPicking(false);
            reactButton.current?.focus();
            const existing = message.reactions?.find(
              (r) => r.emoji.id === null && r.emoji.name === emoji,
            );
            void toggleReaction(store, {
              message,
              emoji: { id: null, name: emoji },
              add: existing?.me !== true,
            });
          }}
          onClose={() => {
            setPicking(false);
            reactButton.current?.focus();
          }}
        />
      ) : null}
      {menuOpen ? (
        <MessageMenu
          message={message}
          channel={channel}
          abilities={abilities}
          onEdit={() => {
            setEditing(true);
          }}
          onClose={() => {
            setMenuOpen(false);
            moreButton.current?.focus();
          }}
        />
      ) : null}
    </article>
  );
});

/** Editing a message in place: Enter saves (PATCH), Escape cancels, Shift+Enter a new line. */
function EditBox({ message, onDone }: { message: APIMessage; onDone: () => void }) {
  const [text, setText] = useState(message.content);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async () => {
    if (text === message.content) {
      onDone();
      return;
    }
    setBusy(true);
    try {
      // MESSAGE_UPDATE brings the edit to the list.
      await api('PATCH', `/channels/${message.channel_id}/messages/${message.id}`, {
        body: { content: text },
      });
      onDone();
    } catch (e) {
      setError(errorMessage(e));
      setBusy(false);
    }
  };
  return (
    <div className="edit-box">
      <textarea
        aria-label="Edit message"
        value={text}
        // The edit starts where the user asked for it.
        autoFocus
        disabled={busy}
        rows={Math.min(8, text.split('\n').length)}
        onChange={(event) => {
          setText(event.target.value);
        }}
        onKeyDown={(event) => {
          if (event.key === 'Escape') {
            event.stopPropagation();
            onDone();
          } else if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
            event.preventDefault();
            void save();
          }
        }}
      />
      <p className="hint">Escape to cancel • Enter to save</p>
      {error === null ? null : (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
