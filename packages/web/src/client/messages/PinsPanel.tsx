import { useEffect, useRef, useState } from 'react';
import type { APIChannel, APIMessage } from 'discord-api-types/v10';
import { api, errorMessage } from '../../lib/api.js';
import { useClient, useClientState } from '../context.js';
import { Markdown } from './Markdown.js';
import { displayName } from './names.js';

interface PinsPage {
  items: { pinned_at: string; message: APIMessage }[];
  has_more: boolean;
}

/**
 * The channel's pinned messages (GET /channels/{id}/messages/pins, newest pin first), read again
 * when CHANNEL_PINS_UPDATE says they changed. Escape closes it.
 */
export function PinsPanel({ channel, onClose }: { channel: APIChannel; onClose: () => void }) {
  const { gateway } = useClient();
  const guildId = 'guild_id' in channel ? (channel.guild_id ?? null) : null;
  const members = useClientState((s) => (guildId === null ? undefined : s.members[guildId]));
  const [page, setPage] = useState<PinsPage | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const closeButton = useRef<HTMLButtonElement>(null);
  // Focus moves into the panel, so Escape closes it and Tab reads the pins next.
  useEffect(() => {
    closeButton.current?.focus();
  }, []);
  useEffect(
    () =>
      gateway.on('CHANNEL_PINS_UPDATE', (data) => {
        if ((data as { channel_id: string }).channel_id === channel.id) setVersion((v) => v + 1);
      }),
    [gateway, channel.id],
  );
  useEffect(() => {
    const controller = new AbortController();
    api<PinsPage>('GET', `/channels/${channel.id}/messages/pins`, {
      query: { limit: 50 },
      signal: controller.signal,
    }).then(setPage, (e: unknown) => {
      if (!controller.signal.aborted) setError(errorMessage(e));
    });
    return () => {
      controller.abort();
    };
  }, [channel.id, version]);
  return (
    <section
      className="pins-panel"
      role="dialog"
      aria-label="Pinned Messages"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onClose();
        }
      }}
    >
      <header className="pins-header">
        <h2>Pinned Messages</h2>
        <button
          ref={closeButton}
          type="button"
          aria-label="Close pinned messages"
          onClick={onClose}
        >
          ×
        </button>
      </header>
      {error !== null ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : page === null ? (
        <p>Loading…</p>
      ) : page.items.length === 0 ? (
        <p>This channel has no pinned messages yet.</p>
      ) : (
        <ul className="pins-list">
          {page.items.map(({ message }) => (
            <li key={message.id}>
              <article aria-label={displayName(message.author, members?.[message.author.id])}>
                <strong>{displayName(message.author, members?.[message.author.id])}</strong>
                <div className="message-content">
                  <Markdown content={message.content} guildId={guildId} />
                </div>
                {message.attachments.length === 0 ? null : (
                  <p className="muted">{message.attachments.length} attachment(s)</p>
                )}
              </article>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
