import { useCallback, useState, type ReactNode, type TextareaHTMLAttributes } from 'react';
import { FieldFrame } from '../components/Field.js';

/** A settings page's title and a sentence about it. */
export function PageTitle({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="page-heading">
      <h1 tabIndex={-1}>{title}</h1>
      {children === undefined ? null : <p className="hint">{children}</p>}
    </div>
  );
}

/** A labelled textarea with its API message under it (Field's textarea twin). */
export function TextAreaField({
  label,
  error,
  hint,
  ...textarea
}: TextareaHTMLAttributes<HTMLTextAreaElement> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
}) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => <textarea {...control} {...textarea} />}
    </FieldFrame>
  );
}

/**
 * A form's editable copy of saved values: `set` one field, `reset` to new saved values (the
 * PATCH's answer), `dirty` when anything differs from them.
 */
export function useDraft<T extends object>(saved: T) {
  const [base, setBase] = useState(saved);
  const [draft, setDraft] = useState(saved);
  const set = useCallback(<K extends keyof T>(key: K, value: T[K]) => {
    setDraft((current) => ({ ...current, [key]: value }));
  }, []);
  const reset = useCallback((next: T) => {
    setBase(next);
    setDraft(next);
  }, []);
  const dirty = JSON.stringify(base) !== JSON.stringify(draft);
  return { base, draft, set, reset, dirty };
}

/** "Save Changes" (and "Reset" while there are unsaved changes), with a saved notice. */
export function SaveBar({
  dirty,
  busy,
  saved,
  onReset,
}: {
  dirty: boolean;
  busy: boolean;
  saved: boolean;
  onReset: () => void;
}) {
  return (
    <div className="save-bar">
      <span role="status" className="save-status">
        {dirty ? 'You have unsaved changes.' : saved ? 'All changes saved.' : ''}
      </span>
      {dirty ? (
        <button type="button" onClick={onReset} disabled={busy}>
          Reset
        </button>
      ) : null}
      <button type="submit" className="primary" disabled={busy || !dirty}>
        {busy ? 'Saving…' : 'Save Changes'}
      </button>
    </div>
  );
}
