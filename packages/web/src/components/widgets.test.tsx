import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { Dialog } from './Dialog.js';
import { Toggle } from './Toggle.js';
import { CopyField } from './CopyField.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function Opener() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <button
        type="button"
        onClick={() => {
          setOpen(true);
        }}
      >
        Open
      </button>
      {open ? (
        <Dialog
          title="Settings"
          onClose={() => {
            setOpen(false);
          }}
        >
          <input aria-label="First" />
          <button type="button">Last</button>
        </Dialog>
      ) : null}
    </>
  );
}

describe('Dialog', () => {
  it('is a named modal that traps Tab, closes on Escape and gives focus back', async () => {
    const user = userEvent.setup();
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'Open' });
    await user.click(opener);
    const dialog = screen.getByRole('dialog', { name: 'Settings' });
    expect(dialog.getAttribute('aria-modal')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('First'));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Last' }));
    await user.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('First'));
    await user.tab({ shift: true });
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Last' }));
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
  });
});

describe('Toggle', () => {
  it('is a labelled switch, locked with its reason', async () => {
    const onChange = vi.fn();
    const user = userEvent.setup();
    const { rerender } = render(<Toggle label="Public Bot" checked={false} onChange={onChange} />);
    const toggle = screen.getByRole('switch', { name: 'Public Bot' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await user.click(toggle);
    expect(onChange).toHaveBeenCalledWith(true);
    rerender(
      <Toggle label="Public Bot" checked onChange={onChange} disabledReason="Needs review." />,
    );
    expect(screen.getByRole<HTMLButtonElement>('switch', { name: 'Public Bot' }).disabled).toBe(
      true,
    );
    expect(screen.getByRole('switch').getAttribute('aria-describedby')).not.toBeNull();
    expect(screen.getByText('Needs review.')).toBeDefined();
  });
});

describe('CopyField', () => {
  it('copies with the clipboard API', async () => {
    const user = userEvent.setup();
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyField label="Bot token" value="abc.def" secret />);
    expect(screen.getByLabelText<HTMLInputElement>('Bot token').readOnly).toBe(true);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    expect(writeText).toHaveBeenCalledWith('abc.def');
    expect(await screen.findByText('Copied!')).toBeDefined();
  });

  it('selects the text when there is no clipboard', async () => {
    const user = userEvent.setup();
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    render(<CopyField label="Bot token" value="abc.def" />);
    await user.click(screen.getByRole('button', { name: 'Copy' }));
    const input = screen.getByLabelText<HTMLInputElement>('Bot token');
    expect(document.activeElement).toBe(input);
    expect([input.selectionStart, input.selectionEnd]).toEqual([0, 7]);
    expect(await screen.findByText(/Ctrl\+C/)).toBeDefined();
  });
});
