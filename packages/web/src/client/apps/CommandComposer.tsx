import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { APIChannel } from 'discord-api-types/v10';
import { useClientState } from '../context.js';
import { composerLabel } from '../messages/names.js';
import { useCommandIndex } from './commandIndex.js';
import { commandEntries, filterEntries, type CommandEntry } from './commandOptions.js';
import { CommandForm } from './CommandForm.js';
import '../../styles/apps.css';

/**
 * The composer while the draft starts with `/`: the command picker (the "Commands" listbox of
 * the channel's command index, filtered by what is typed, grouped by app, arrows/Enter/Escape),
 * then the chosen command's options as fields (CommandForm). Removing the `/` or Escape gives
 * the plain composer back (`onDone`).
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
  const me = useClientState((s) => s.me);
  const { index, error } = useCommandIndex(channel.id);
  const [text, setText] = useState(initialText);
  const [chosen, setChosen] = useState<CommandEntry | null>(null);
  const [active, setActive] = useState(0);
  const entries = useMemo(() => (index === null ? [] : commandEntries(index)), [index]);
  const matches = useMemo(() => filterEntries(entries, text), [entries, text]);
  const listId = useId();
  const optionId = (i: number) => `${listId}-option-${i}`;

  const box = useRef<HTMLTextAreaElement>(null);

  useEffect(() => {
    setActive(0);
  }, [text]);

  // The plain composer hands over focus with the first character typed: carry on typing after it
  // (a focused textarea would otherwise put the caret before the `/`).
  useEffect(() => {
    const node = box.current;
    if (node === null) return;
    node.focus();
    node.setSelectionRange(node.value.length, node.value.length);
  }, [chosen]);

  if (chosen !== null) {
    return (
      <CommandForm
        channel={channel}
        entry={chosen}
        onCancel={() => {
          setChosen(null);
        }}
        onDone={onDone}
      />
    );
  }

  const choose = (entry: CommandEntry | undefined) => {
    if (entry !== undefined) setChosen(entry);
  };
  const onKeyDown = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (matches.length === 0) return;
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => (i + step + matches.length) % matches.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      if (matches.length === 0) return;
      event.preventDefault();
      choose(matches[Math.min(active, matches.length - 1)]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      onDone();
    }
  };

  // Entries grouped by app, keeping their overall order for the arrow keys.
  const groups: { app: string; items: { entry: CommandEntry; at: number }[] }[] = [];
  matches.forEach((entry, at) => {
    const last = groups[groups.length - 1];
    if (last?.app === entry.appName) last.items.push({ entry, at });
    else groups.push({ app: entry.appName, items: [{ entry, at }] });
  });

  return (
    <div className="command-composer">
      <div className="command-picker" role="listbox" id={listId} aria-label="Commands">
        {index === null && error === null ? (
          <p className="command-picker-note">Loading commands…</p>
        ) : null}
        {error === null ? null : (
          <p className="command-picker-note" role="alert">
            {error}
          </p>
        )}
        {index !== null && matches.length === 0 ? (
          <p className="command-picker-note">
            {entries.length === 0 ? 'No apps offer commands here.' : 'No command matches.'}
          </p>
        ) : null}
        {groups.map((group) => (
          <div role="group" aria-label={group.app} key={group.app} className="command-group">
            <div className="command-group-name" aria-hidden="true">
              {group.app}
            </div>
            {group.items.map(({ entry, at }) => (
              <div
                key={`${entry.command.id}:${entry.label}`}
                id={optionId(at)}
                role="option"
                aria-selected={at === active}
                className="command-option"
                onMouseDown={(event) => {
                  // Keep focus in the textbox; the click chooses.
                  event.preventDefault();
                }}
                onClick={() => {
                  choose(entry);
                }}
              >
                <span className="command-option-name">/{entry.label}</span>{' '}
                <span className="command-option-description">{entry.description}</span>
              </div>
            ))}
          </div>
        ))}
      </div>
      <textarea
        className="composer-input"
        aria-label={composerLabel(channel, me?.id ?? null)}
        aria-autocomplete="list"
        aria-controls={listId}
        aria-activedescendant={matches.length === 0 ? undefined : optionId(active)}
        ref={box}
        value={text}
        rows={1}
        onChange={(event) => {
          if (!event.target.value.startsWith('/')) onDone();
          else setText(event.target.value);
        }}
        onKeyDown={onKeyDown}
      />
    </div>
  );
}
