import { useEffect, useRef } from 'react';
import { COMMON_EMOJI } from './emoji.js';

/**
 * A small popover of common emoji. Arrow keys move between them, Enter/click picks, Escape or a
 * click outside closes (focus goes back to the button that opened it, which the caller keeps).
 */
export function EmojiPicker({
  onPick,
  onClose,
}: {
  onPick: (emoji: string) => void;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    ref.current?.querySelector('button')?.focus();
    const onDown = (event: MouseEvent) => {
      if (ref.current !== null && !ref.current.contains(event.target as Node)) onClose();
    };
    document.addEventListener('mousedown', onDown);
    return () => {
      document.removeEventListener('mousedown', onDown);
    };
  }, [onClose]);
  const move = (event: React.KeyboardEvent<HTMLDivElement>) => {
    const buttons = [...(ref.current?.querySelectorAll('button') ?? [])];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    const step = { ArrowRight: 1, ArrowLeft: -1, ArrowDown: 8, ArrowUp: -8 }[event.key];
    if (event.key === 'Escape') {
      event.stopPropagation();
      onClose();
    } else if (step !== undefined && index !== -1) {
      event.preventDefault();
      buttons[Math.max(0, Math.min(buttons.length - 1, index + step))]?.focus();
    }
  };
  return (
    <div
      ref={ref}
      className="emoji-picker"
      role="dialog"
      aria-label="Pick a reaction"
      onKeyDown={move}
    >
      {COMMON_EMOJI.map(({ emoji, name }) => (
        <button
          key={emoji}
          type="button"
          aria-label={name}
          title={name}
          onClick={() => {
            onPick(emoji);
          }}
        >
          {emoji}
        </button>
      ))}
    </div>
  );
}
