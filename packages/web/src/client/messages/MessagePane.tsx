import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { MessageType, PermissionFlagsBits, type APIMessage } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { useClient, useClientState } from '../context.js';
import { can } from '../permissions.js';
import type { Store } from '../../lib/store.js';
import { addMessages, startHistory, type ClientState, type PendingMessage } from '../state.js';
import { Composer, draftFiles, type DraftFile } from './Composer.js';
import { Message } from './Message.js';
import type { MessageAbilities } from './MessageMenu.js';
import { dismissPending, sendMessage } from './send.js';
import { TypingIndicator } from './TypingIndicator.js';

const PAGE = 50;
/** Messages of one author closer than this in time are shown as one group, as the platform does. */
const GROUP_MS = 7 * 60_000;

/** Whether a message continues its predecessor's group (same author, plain, soon after). */
export function continues(previous: APIMessage | undefined, message: APIMessage): boolean {
  if (previous?.author.id !== message.author.id) return false;
  const plain = (m: APIMessage) =>
    m.type === MessageType.Default && m.interaction_metadata === undefined;
  if (!plain(previous) || !plain(message)) return false;
  return Date.parse(message.timestamp) - Date.parse(previous.timestamp) < GROUP_MS;
}
const NONE: PendingMessage[] = [];

/**
 * A conversation (guild channel or DM): its history (older pages loaded on scrolling up), live
 * messages, messages being sent, who is typing, and the composer (files may be dropped anywhere
 * on the pane).
 */
export function MessagePane({
  channelId,
  focusId = null,
}: {
  channelId: string;
  /** A message to show: scrolled to and focused once it is in the loaded history. */
  focusId?: string | null;
}) {
  const { store } = useClient();
  const channel = useClientState((s) => s.channels[channelId]);
  const list = useClientState((s) => s.messages[channelId]);
  const pending = useClientState((s) => s.pending[channelId] ?? NONE);
  const guildId =
    channel !== undefined && 'guild_id' in channel ? (channel.guild_id ?? null) : null;
  const guild = useClientState((s) => (guildId === null ? undefined : s.guilds[guildId]));
  const members = useClientState((s) => (guildId === null ? undefined : s.members[guildId]));
  const me = useClientState((s) => s.me);
  const [error, setError] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [files, setFiles] = useState<DraftFile[]>([]);
  const [dragging, setDragging] = useState(false);
  /** The message Tab reaches in the list (the newest until the user moves). */
  const [activeId, setActiveId] = useState<string | null>(null);
  const scroller = useRef<HTMLDivElement>(null);
  /** Whether the view follows new messages (the user is at the bottom). */
  const stick = useRef(true);
  /** The scroll height before an older page was added, to keep the view where it was. */
  const heightBefore = useRef<number | null>(null);

  const loaded = list !== undefined && list.loading !== true;
  useEffect(() => {
    if (loaded) return;
    store.set((s) => startHistory(s, channelId));
    const controller = new AbortController();
    api<APIMessage[]>('GET', `/channels/${channelId}/messages`, {
      query: { limit: PAGE },
      signal: controller.signal,
    }).then(
      (messages) => {
        store.set((s) =>
          addMessages(s, channelId, { messages, hasMore: messages.length === PAGE }),
        );
      },
      (e: unknown) => {
        if (!controller.signal.aborted) setError(errorMessage(e));
      },
    );
    return () => {
      controller.abort();
    };
  }, [channelId, store, loaded]);

  const loadOlder = useCallback(async () => {
    const current = store.get().messages[channelId];
    const first = current?.ids[0];
    if (current === undefined || !current.hasMore || first === undefined || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const messages = await api<APIMessage[]>('GET', `/channels/${channelId}/messages`, {
        query: { limit: PAGE, before: first },
      });
      heightBefore.current = scroller.current?.scrollHeight ?? null;
      store.set((s) => addMessages(s, channelId, { messages, hasMore: messages.length === PAGE }));
    } catch (e) {
      setError(errorMessage(e));
    } finally {
      setLoadingOlder(false);
    }
  }, [channelId, store, loadingOlder]);

  // After render: keep the reading position when older messages were added above, else follow
  // new messages if the user was at the bottom.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (el === null) return;
    if (heightBefore.current !== null) {
      el.scrollTop += el.scrollHeight - heightBefore.current;
      heightBefore.current = null;
    } else if (stick.current) {
      el.scrollTop = el.scrollHeight;
    }
  }, [list, pending]);

  // Opened at a message (a link to it): once it is loaded, show it instead of the bottom.
  const focused = useRef<string | null>(null);
  const hasFocusTarget = focusId !== null && list?.ids.includes(focusId) === true;
  useLayoutEffect(() => {
    if (!hasFocusTarget || focused.current === focusId) return;
    const target = scroller.current?.querySelector<HTMLElement>(
      `article[data-message-id="${focusId}"]`,
    );
    if (target == null) return;
    focused.current = focusId;
    stick.current = false;
    setActiveId(focusId);
    target.scrollIntoView({ block: 'center' });
    target.focus();
  }, [focusId, hasFocusTarget]);

  // Images and embeds grow the list after it rendered: still follow the bottom if the user was there.
  useEffect(() => {
    const el = scroller.current;
    const content = el?.querySelector('.message-list');
    if (el === null || content === null || content === undefined || !('ResizeObserver' in window)) {
      return;
    }
    const observer = new ResizeObserver(() => {
      if (stick.current) el.scrollTop = el.scrollHeight;
    });
    observer.observe(content);
    return () => {
      observer.disconnect();
    };
  }, [loaded]);

  const abilities = useMemo(() => {
    const meId = me?.id ?? null;
    const member = meId === null ? undefined : members?.[meId];
    if (channel === undefined) return null;
    const input = { guild, member, userId: meId, channel };
    const common = {
      manage: can(PermissionFlagsBits.ManageMessages, input),
      pin: can(PermissionFlagsBits.PinMessages, input),
      react: can(PermissionFlagsBits.AddReactions, input),
    };
    // Two stable objects, so a memoized message re-renders only when it changes.
    return {
      ownMessage: { ...common, own: true },
      othersMessage: { ...common, own: false },
      send: can(PermissionFlagsBits.SendMessages, input),
      attach: can(PermissionFlagsBits.AttachFiles, input),
    };
  }, [me, members, guild, channel]);

  if (channel === undefined || abilities === null) return <p className="placeholder">Loading…</p>;

  // The active message, or the newest when it was deleted or none was chosen.
  const currentId =
    activeId !== null && list?.byId[activeId] !== undefined ? activeId : list?.ids.at(-1);
  const abilitiesFor = (message: APIMessage): MessageAbilities =>
    message.author.id === me?.id ? abilities.ownMessage : abilities.othersMessage;

  return (
    <div
      className={`message-pane${dragging ? ' dragging' : ''}`}
      onDragOver={(event) => {
        if (!event.dataTransfer.types.includes('Files') || !abilities.attach) return;
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={(event) => {
        if (event.currentTarget === event.target) setDragging(false);
      }}
      onDrop={(event) => {
        setDragging(false);
        if (event.dataTransfer.files.length === 0 || !abilities.attach) return;
        event.preventDefault();
        setFiles((f) => [...f, ...draftFiles(event.dataTransfer.files)]);
      }}
    >
      <div
        ref={scroller}
        className="message-scroller"
        onScroll={(event) => {
          const el = event.currentTarget;
          stick.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          if (el.scrollTop < 200) void loadOlder();
        }}
      >
        {!loaded ? (
          <p className="placeholder">{error ?? 'Loading messages…'}</p>
        ) : list.hasMore ? (
          <button
            type="button"
            className="load-older"
            disabled={loadingOlder}
            onClick={() => void loadOlder()}
          >
            {loadingOlder ? 'Loading…' : 'Load older messages'}
          </button>
        ) : (
          <p className="channel-start">This is the beginning of this conversation.</p>
        )}
        <div className="message-list" role="log" aria-label="Messages" aria-live="polite">
          {(list?.ids ?? []).map((id, index) => {
            const message = list?.byId[id];
            if (message === undefined) return null;
            const previous = list?.byId[list.ids[index - 1] ?? ''];
            return (
              <Message
                key={id}
                message={message}
                continued={continues(previous, message)}
                channel={channel}
                guild={guild}
                member={members?.[message.author.id]}
                abilities={abilitiesFor(message)}
                active={id === currentId}
                onActivate={setActiveId}
              />
            );
          })}
          {pending.map((p) => (
            <PendingView
              key={p.nonce}
              pending={p}
              author={me?.global_name ?? me?.username ?? ''}
              store={store}
            />
          ))}
        </div>
        {error !== null && loaded ? (
          <p className="field-error" role="alert">
            {error}
          </p>
        ) : null}
      </div>
      <Composer
        channel={channel}
        files={files}
        onFilesChange={setFiles}
        disabledReason={
          abilities.send ? null : 'You do not have permission to send messages in this channel.'
        }
      />
      <TypingIndicator channelId={channelId} guildId={guildId} />
      {dragging ? (
        <div className="drop-hint" aria-hidden="true">
          Drop files to upload
        </div>
      ) : null}
    </div>
  );
}

/** A message on its way (dimmed), or refused with the API's message and Retry / Dismiss. */
function PendingView({
  pending: p,
  author,
  store,
}: {
  pending: PendingMessage;
  author: string;
  store: Store<ClientState>;
}) {
  return (
    <article className={`message pending${p.error === null ? '' : ' failed'}`} aria-label={author}>
      <header className="message-header">
        <span className="message-author">{author}</span>
        <span className="message-time">{p.error === null ? 'Sending…' : 'Not sent'}</span>
      </header>
      <div className="message-content">{p.content}</div>
      {p.files.length === 0 ? null : (
        <ul className="attachments">
          {p.files.map((file, i) => (
            <li key={i}>{file.name}</li>
          ))}
        </ul>
      )}
      {p.error === null ? null : (
        <div className="pending-error" role="alert">
          {p.error}{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              dismissPending(store, p.channelId, p.nonce);
              void sendMessage(store, p.channelId, { content: p.content, files: p.files });
            }}
          >
            Retry
          </button>{' '}
          <button
            type="button"
            className="link-button"
            onClick={() => {
              dismissPending(store, p.channelId, p.nonce);
            }}
          >
            Dismiss
          </button>
        </div>
      )}
    </article>
  );
}
