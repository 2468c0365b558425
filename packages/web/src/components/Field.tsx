import { useId, type InputHTMLAttributes, type ReactNode } from 'react';

/** The attributes FieldFrame gives its control, to spread on the input, select or textarea. */
export interface ControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

/**
 * What every labelled control shares: its label, a hint, and the API's message for its field
 * under it, tied to the control by id, aria-describedby and aria-invalid (announced to screen
 * readers). `children` renders the control with the attributes it is given.
 */
export function FieldFrame({
  label,
  error,
  hint,
  children,
}: {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  children: (control: ControlProps) => ReactNode;
}) {
  const id = useId();
  const describedBy = [
    hint === undefined ? null : `${id}-hint`,
    error === undefined ? null : `${id}-error`,
  ]
    .filter((part) => part !== null)
    .join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children({
        id,
        'aria-invalid': error === undefined ? undefined : true,
        'aria-describedby': describedBy === '' ? undefined : describedBy,
      })}
      {hint === undefined ? null : (
        <p className="hint" id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {error === undefined ? null : (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** A labelled input with the API's message for its field under it. */
export function Field({
  label,
  error,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
}) {
  return (
    <FieldFrame label={label} error={error} hint={hint}>
      {(control) => <input {...control} {...input} />}
    </FieldFrame>
  );
}

/** A message for the whole form (the API's top-level message, or a network failure). */
export function FormError({ message }: { message: string | null }) {
  if (message === null) return null;
  return (
    <p className="form-error" role="alert">
      {message}
    </p>
  );
}
