import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { APIChannel } from 'discord-api-types/v10';
import { api } from '../../lib/api.js';
import { useClient } from '../context.js';
import { CommandComposer } from '../apps/CommandComposer.js';
import { composerLabel } from './names.js';
import { sendMessage, spoilerName } from './send.js';
import { createTypingThrottle } from './typing.js';

export interface DraftFile {
  /** Stable key for the list (two files may share a name). */
  key: number;
  file: File;
  spoiler: boolean;
}

/** The file as sent: a spoiler gets the platform's `SPOILER_` name prefix. */
export function outgoingFile({ file, spoiler }: DraftFile): File {
  if (!spoiler || file.name.startsWith('SPOILER_')) return file;
  return new File([file], spoilerName(file.name), { type: file.type });
}

let nextKey = 1;
export function draftFiles(files: Iterable<File>): DraftFile[] {
  return [...files].map((file) => ({ key: nextKey++, file, spoiler: false }));
}

/**
 * The message box: Enter sends, Shift+Enter is a new line; typing tells the others (throttled);
 * files chosen or dropped are listed with a spoiler checkbox each. A draft starting with `/`
 * hands over to the command composer.
 */
export function Composer({
  channel,
  files,
  onFilesChange,
  disabledReason,
}: {
  channel: APIChannel;
  files: DraftFile[];
  onFilesChange: (files: DraftFile[]) => void;
  /** Why the user cannot send here (no permission), shown instead of the box. */
  disabledReason?: string | null;
}) {
  const { store } = useClient();
  const meId = store.get().me?.id ?? null;
  const [draft, setDraft] = useState('');
  const textarea = useRef<HTMLTextAreaElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const throttle = useMemo(
    () =>
      createTypingThrottle(() => {
        void api('POST', `/channels/${channel.id}/typing`).catch(() => undefined);
      }),
    [channel.id],
  );
  const label = composerLabel(channel, meId);

  const send = () => {
    const content = draft.trim();
    if (content === '' && files.length === 0) return;
    void sendMessage(store, channel.id, { content, files: files.map(outgoingFile) });
    setDraft('');
    onFilesChange([]);
    throttle.sent();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME composing a character uses Enter itself.
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };

  if (disabledReason !== undefined && disabledReason !== null) {
    return <p className="composer composer-disabled">{disabledReason}</p>;
  }

  const commandMode = draft.startsWith('/') && files.length === 0;
  return (
    <form
      className="composer"
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      {files.length === 0 ? null : (
        <ul className="composer-files" aria-label="Attachments to send">
          {files.map((f) => (
            <li key={f.key} className="composer-file">
              <span className="composer-file-name">{f.file.name}</span>
              <label>
                <input
                  type="checkbox"
                  checked={f.spoiler}
                  onChange={(event) => {
                    onFilesChange(
                      files.map((x) =>
                        x.key === f.key ? { ...x, spoiler: event.target.checked } : x,
                      ),
                    );
                  }}
                />{' '}
                Mark as spoiler
              </label>
              <button
                type="button"
                className="link-button"
                aria-label={`Remove ${f.file.name}`}
                onClick={() => {
                  onFilesChange(files.filter((x) => x.key !== f.key));
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ul>
      )}
      <div className="composer-row">
        <button
          type="button"
          className="composer-upload"
          aria-label="Attach files"
          title="Attach files"
          onClick={() => fileInput.current?.click()}
        >
          <span aria-hidden="true">+</span>
        </button>
        <input
          ref={fileInput}
          type="file"
          multiple
          aria-label="Upload a file"
          // The button above opens it; one tab stop for the two.
          tabIndex={-1}
          className="visually-hidden"
          onChange={(event) => {
            const chosen = event.target.files;
            if (chosen !== null) onFilesChange([...files, ...draftFiles(chosen)]);
            event.target.value = '';
          }}
        />
        {commandMode ? (
          <CommandComposer
            channel={channel}
            initialText={draft}
            onDone={() => {
              setDraft('');
              textarea.current?.focus();
            }}
          />
        ) : (
          <textarea
            ref={textarea}
            className="composer-input"
            aria-label={label}
            placeholder={label}
            rows={Math.min(8, draft.split('\n').length)}
            value={draft}
            onChange={(event) => {
              setDraft(event.target.value);
              if (event.target.value !== '') throttle.typed();
            }}
            onKeyDown={onKeyDown}
          />
        )}
        {commandMode ? null : (
          <button type="submit" className="composer-send">
            Send
          </button>
        )}
      </div>
    </form>
  );
}
