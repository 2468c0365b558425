import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import '../styles/widgets.css';

/**
 * A read-only value (a token, an id, a URL) with a label and a "Copy" button. The clipboard API
 * needs a secure context; elsewhere the text is selected so Ctrl+C copies it.
 */
export function CopyField({
  label,
  value,
  hint,
  secret = false,
}: {
  label: string;
  value: string;
  hint?: ReactNode;
  /** Shown in a monospace font (a token or secret), never autocompleted. */
  secret?: boolean;
}) {
  const id = useId();
  const input = useRef<HTMLInputElement>(null);
  const [status, setStatus] = useState('');
  useEffect(() => {
    if (status === '') return;
    const timer = setTimeout(() => {
      setStatus('');
    }, 2500);
    return () => {
      clearTimeout(timer);
    };
  }, [status]);

  const copy = async () => {
    try {
      // Undefined outside a secure context, whatever the DOM types say.
      const clipboard = navigator.clipboard as Clipboard | undefined;
      if (clipboard === undefined) throw new Error('no clipboard');
      await clipboard.writeText(value);
      setStatus('Copied!');
    } catch {
      input.current?.focus();
      input.current?.select();
      setStatus('Selected: press Ctrl+C to copy.');
    }
  };

  return (
    <div className="field copy-field">
      <label htmlFor={id}>{label}</label>
      <div className="copy-row">
        <input
          ref={input}
          id={id}
          readOnly
          value={value}
          className={secret ? 'mono' : undefined}
          autoComplete="off"
          spellCheck={false}
          aria-describedby={hint === undefined ? undefined : `${id}-hint`}
          onFocus={(event) => {
            event.currentTarget.select();
          }}
        />
        <button type="button" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      {hint === undefined ? null : (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      <span className="copy-status" role="status">
        {status}
      </span>
    </div>
  );
}
