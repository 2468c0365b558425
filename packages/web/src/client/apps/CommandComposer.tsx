import { useState } from 'react';
import type { APIChannel } from 'discord-api-types/v10';
import { useClient } from '../context.js';
import { sendMessage } from '../messages/send.js';
import { composerLabel } from '../messages/names.js';

/**
 * The composer while the draft starts with `/` (H4 replaces this first version with command
 * pickers): until then the text is sent as a plain message; Escape or removing the `/` gives the
 * plain composer back.
 */
export function CommandComposer({
  channel,
  initialText,
  onDone,
}: {
  channel: APIChannel;
  initialText: string;
  onDone: () => void;
}) {
  const { store } = useClient();
  const [text, setText] = useState(initialText);
  const me = store.get().me;
  return (
    <textarea
      className="composer-input"
      aria-label={composerLabel(channel, me?.id ?? null)}
      value={text}
      // The plain composer handed over focus with the first character typed.
      autoFocus
      rows={1}
      onChange={(event) => {
        if (!event.target.value.startsWith('/')) onDone();
        else setText(event.target.value);
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') onDone();
        if (event.key === 'Enter' && !event.shiftKey) {
          event.preventDefault();
          void sendMessage(store, channel.id, { content: text });
          onDone();
        }
      }}
    />
  );
}
