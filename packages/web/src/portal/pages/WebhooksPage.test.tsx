import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { WebhooksPage } from './WebhooksPage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('WebhooksPage', () => {
  it('sends a new URL without the status it turns on, and the types picked', async () => {
    const user = userEvent.setup();
    const app = makeApp();
    const fetch = stubFetch(() =>
      json(200, {
        ...app,
        event_webhooks_url: 'https://hooks.example/events',
        event_webhooks_status: 2,
        event_webhooks_types: ['LOBBY_MESSAGE_CREATE'],
      }),
    );
    render(
      <AppHarness app={app}>
        <WebhooksPage />
      </AppHarness>,
    );
    await user.click(screen.getByRole('switch', { name: 'Events' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    // Events on without a URL: refused here as the API would.
    expect((await screen.findByRole('alert')).textContent).toContain(
      'without a webhook events URL',
    );
    expect(fetch).not.toHaveBeenCalled();

    await user.type(screen.getByLabelText('Event Webhooks URL'), 'https://hooks.example/events');
    await user.click(screen.getByRole('checkbox', { name: 'LOBBY_MESSAGE_CREATE' }));
    await user.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(requestOf(fetch, 0).body).toEqual({
      event_webhooks_url: 'https://hooks.example/events',
      event_webhooks_types: ['LOBBY_MESSAGE_CREATE'],
    });
    expect(await screen.findByText('All changes saved.')).toBeDefined();
    expect(screen.getByRole('switch', { name: 'Events' }).getAttribute('aria-checked')).toBe(
      'true',
    );
  });
});
