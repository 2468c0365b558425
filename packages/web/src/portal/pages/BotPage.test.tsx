import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BotPage } from './BotPage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PRESENCE = 1 << 12;
const PRESENCE_LIMITED = 1 << 13;
const MEMBERS_LIMITED = 1 << 15;
const CONTENT_LIMITED = 1 << 19;
const EMBEDDED = 1 << 17;

function switchNamed(name: string): HTMLButtonElement {
  return screen.getByRole<HTMLButtonElement>('switch', { name });
}

describe('BotPage privileged intents', () => {
  it('sends only the self-serve bits with the one toggled', async () => {
    const user = userEvent.setup();
    // EMBEDDED is the platform's bit: PATCH refuses it, so it must not be sent back.
    const app = makeApp({ flags: EMBEDDED | MEMBERS_LIMITED, approximate_user_count: 120 });
    const fetch = stubFetch(
      () => json(200, { ...app, flags: EMBEDDED | MEMBERS_LIMITED | CONTENT_LIMITED }),
      () => json(200, { ...app, flags: EMBEDDED | CONTENT_LIMITED }),
    );
    render(
      <AppHarness app={app}>
        <BotPage />
      </AppHarness>,
    );
    expect(switchNamed('Server Members Intent').getAttribute('aria-checked')).toBe('true');
    expect(switchNamed('Message Content Intent').getAttribute('aria-checked')).toBe('false');

    await user.click(switchNamed('Message Content Intent'));
    expect(requestOf(fetch, 0)).toEqual({
      method: 'PATCH',
      url: `/api/v10/applications/${app.id}`,
      body: { flags: MEMBERS_LIMITED | CONTENT_LIMITED },
    });
    await vi.waitFor(() => {
      expect(switchNamed('Message Content Intent').getAttribute('aria-checked')).toBe('true');
    });

    await user.click(switchNamed('Server Members Intent'));
    expect(requestOf(fetch, 1).body).toEqual({ flags: CONTENT_LIMITED });
    await vi.waitFor(() => {
      expect(switchNamed('Server Members Intent').getAttribute('aria-checked')).toBe('false');
    });
  });

  it('locks an intent that is off at 10,000 users and says why; one on can still go off', () => {
    const app = makeApp({ flags: PRESENCE_LIMITED, approximate_user_count: 10_000 });
    render(
      <AppHarness app={app}>
        <BotPage />
      </AppHarness>,
    );
    const content = switchNamed('Message Content Intent');
    expect(content.disabled).toBe(true);
    const reason = document.getElementById(
      content.getAttribute('aria-describedby')?.split(' ').at(-1) ?? '',
    );
    expect(reason?.textContent).toMatch(/10,000 users.*needs a review/);
    expect(switchNamed('Server Members Intent').disabled).toBe(true);
    expect(switchNamed('Presence Intent').disabled).toBe(false);
  });

  it('keeps toggles open below the threshold and shows an intent approved by review as on', () => {
    const app = makeApp({ flags: PRESENCE, approximate_user_count: 9_999 });
    render(
      <AppHarness app={app}>
        <BotPage />
      </AppHarness>,
    );
    expect(switchNamed('Message Content Intent').disabled).toBe(false);
    const presence = switchNamed('Presence Intent');
    expect(presence.getAttribute('aria-checked')).toBe('true');
    expect(presence.disabled).toBe(true);
  });

  it("shows the API's refusal under the switch and keeps it off", async () => {
    const user = userEvent.setup();
    const app = makeApp({ flags: 0, approximate_user_count: 50 });
    stubFetch(() =>
      json(400, {
        code: 50035,
        message: 'Invalid Form Body',
        errors: {
          flags: {
            _errors: [
              {
                code: 'PRIVILEGED_INTENTS_REVIEW_REQUIRED',
                message: 'This intent needs a review at 10,000 users.',
              },
            ],
          },
        },
      }),
    );
    render(
      <AppHarness app={app}>
        <BotPage />
      </AppHarness>,
    );
    await user.click(switchNamed('Presence Intent'));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'This intent needs a review at 10,000 users.',
    );
    expect(switchNamed('Presence Intent').getAttribute('aria-checked')).toBe('false');
  });
});

describe('BotPage token reset', () => {
  it('asks first, then shows the new token once', async () => {
    const user = userEvent.setup();
    const app = makeApp();
    const fetch = stubFetch(() => json(200, { token: 'MTAw.new.token' }));
    const { unmount } = render(
      <AppHarness app={app}>
        <BotPage />
      </AppHarness>,
    );
    expect(screen.queryByLabelText('Bot token')).toBeNull();

    const reset = screen.getByRole('button', { name: 'Reset Token' });
    await user.click(reset);
    const dialog = screen.getByRole('dialog', { name: "Reset Bot's Token?" });
    expect(fetch).not.toHaveBeenCalled();
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(reset);
    expect(fetch).not.toHaveBeenCalled();

    await user.click(reset);
    await user.click(screen.getByRole('button', { name: 'Yes, do it!' }));
    const token = await screen.findByLabelText<HTMLInputElement>('Bot token');
    expect(token.value).toBe('MTAw.new.token');
    expect(token.readOnly).toBe(true);
    expect(requestOf(fetch, 0)).toMatchObject({
      method: 'POST',
      url: `/api/v10/applications/${app.id}/bot/reset`,
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText(/will not be shown again/)).toBeDefined();

    // Shown once: coming back to the page does not show it (nor fetch it).
    unmount();
    render(
      <AppHarness app={app}>
        <BotPage />
      </AppHarness>,
    );
    expect(screen.queryByLabelText('Bot token')).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});
