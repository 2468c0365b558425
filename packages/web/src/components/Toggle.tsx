import { useId, type ReactNode } from 'react';
import '../styles/widgets.css';

/**
 * A labelled on/off switch (`<button role="switch" aria-checked>`), with an optional description
 * read with it. `disabledReason` locks it and says why, next to it.
 */
export function Toggle({
  label,
  checked,
  onChange,
  description,
  disabled = false,
  disabledReason,
}: {
  label: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  description?: ReactNode;
  disabled?: boolean;
  disabledReason?: ReactNode;
}) {
  const id = useId();
  const locked = disabled || disabledReason !== undefined;
  const describedBy = [
    description === undefined ? null : `${id}-description`,
    disabledReason === undefined ? null : `${id}-reason`,
  ]
    .filter((part) => part !== null)
    .join(' ');
  return (
    <div className="toggle-row">
      <div className="toggle-text">
        <label htmlFor={id} className="toggle-label">
          {label}
        </label>
        {description === undefined ? null : (
          <p className="hint" id={`${id}-description`}>
            {description}
          </p>
        )}
        {disabledReason === undefined ? null : (
          <p className="toggle-reason" id={`${id}-reason`}>
            {disabledReason}
          </p>
        )}
      </div>
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={checked}
        aria-describedby={describedBy === '' ? undefined : describedBy}
        className="toggle"
        disabled={locked}
        onClick={() => {
          onChange(!checked);
        }}
      >
        <span className="toggle-knob" aria-hidden="true" />
      </button>
    </div>
  );
}
