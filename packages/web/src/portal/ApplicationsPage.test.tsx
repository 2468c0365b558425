import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { ApplicationsPage } from './ApplicationsPage.js';
import { json, makeApp, requestOf, stubFetch } from './testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderPage() {
  const location = memoryLocation({ path: '/applications', record: true });
  render(
    <Router hook={location.hook}>
      <ApplicationsPage />
    </Router>,
  );
  return location;
}

describe('ApplicationsPage', () => {
  it('creates an app and shows its secrets once, then opens it', async () => {
    const user = userEvent.setup();
    const existing = makeApp({ id: '1', name: 'Old One' });
    const created = makeApp({ id: '2', name: 'New One' });
    const fetch = stubFetch(
      () => json(200, [existing]),
      () =>
        json(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: { name: { _errors: [{ code: 'X', message: 'Username is reserved.' }] } },
        }),
      () => json(201, { ...created, bot_token: 'bot.token.value', client_secret: 'secret-value' }),
    );
    const location = renderPage();
    expect(await screen.findByRole('link', { name: 'Old One' })).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Applications' })).toBeDefined();

    await user.click(screen.getByRole('button', { name: 'New Application' }));
    const dialog = screen.getByRole('dialog', { name: 'Create an application' });
    const name = within(dialog).getByLabelText('Name');
    expect(document.activeElement).toBe(name);
    await user.type(name, 'everyone');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Username is reserved.')).toBeDefined();

    await user.clear(name);
    await user.type(name, 'New One');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    const done = await screen.findByRole('dialog', { name: 'Application created' });
    expect(within(done).getByLabelText<HTMLInputElement>('Bot token').value).toBe(
      'bot.token.value',
    );
    expect(within(done).getByLabelText<HTMLInputElement>('Client secret').value).toBe(
      'secret-value',
    );
    expect(fetch).toHaveBeenCalledTimes(3);
    expect(requestOf(fetch, 2)).toEqual({
      method: 'POST',
      url: '/api/v10/applications',
      body: { name: 'New One' },
    });
    expect(screen.getByRole('link', { name: 'New One' })).toBeDefined();

    await user.click(within(done).getByRole('button', { name: 'Open New One' }));
    expect(location.history.at(-1)).toBe('/applications/2/information');
  });
});
