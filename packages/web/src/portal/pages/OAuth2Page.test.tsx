import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { OAuth2Page } from './OAuth2Page.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('OAuth2Page', () => {
  it('edits the redirects and shows the error of each under its input', async () => {
    const user = userEvent.setup();
    const app = makeApp({ redirect_uris: ['https://app.example/cb'] });
    const fetch = stubFetch(
      () =>
        json(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: {
            redirect_uris: {
              '1': { _errors: [{ code: 'X', message: 'Not a valid redirect URI.' }] },
            },
          },
        }),
      () => json(200, { ...app, redirect_uris: ['https://app.example/cb', 'myapp://done'] }),
    );
    render(
      <AppHarness app={app}>
        <OAuth2Page />
      </AppHarness>,
    );
    expect(screen.getByRole('group', { name: 'Redirects' })).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Add Redirect' }));
    const second = screen.getByLabelText<HTMLInputElement>('Redirect URI 2');
    // Passes the client check (absolute, no fragment) but the server refuses it.
    await user.type(second, 'myapp:x');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(requestOf(fetch, 0).body).toEqual({
      redirect_uris: ['https://app.example/cb', 'myapp:x'],
    });
    expect((await screen.findByRole('alert')).textContent).toBe('Not a valid redirect URI.');
    expect(second.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Redirect URI 1').getAttribute('aria-invalid')).toBeNull();

    await user.clear(second);
    await user.type(second, 'myapp://done');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('All changes saved.')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
    // The generator offers the saved redirects.
    expect(screen.getByRole('option', { name: 'myapp://done' })).toBeDefined();
  });

  it('checks a redirect with a fragment before sending', async () => {
    const user = userEvent.setup();
    const fetch = stubFetch();
    render(
      <AppHarness app={makeApp()}>
        <OAuth2Page />
      </AppHarness>,
    );
    await user.click(screen.getByRole('button', { name: 'Add Redirect' }));
    await user.type(screen.getByLabelText('Redirect URI 1'), 'https://app.example/#frag');
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe('Not a valid redirect URI.');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('shows a reset client secret once, after confirming', async () => {
    const user = userEvent.setup();
    const app = makeApp();
    const fetch = stubFetch(() => json(200, { secret: 'new-client-secret' }));
    render(
      <AppHarness app={app}>
        <OAuth2Page />
      </AppHarness>,
    );
    expect(screen.queryByLabelText('Client Secret')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Reset Secret' }));
    await user.click(screen.getByRole('button', { name: 'Yes, do it!' }));
    expect((await screen.findByLabelText<HTMLInputElement>('Client Secret')).value).toBe(
      'new-client-secret',
    );
    expect(requestOf(fetch, 0)).toMatchObject({
      method: 'POST',
      url: `/api/v10/applications/${app.id}/reset`,
    });
  });
});
