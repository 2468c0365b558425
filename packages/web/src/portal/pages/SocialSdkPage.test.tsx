import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { SocialSdkPage } from './SocialSdkPage.js';
import { AppHarness, json, makeApp, requestOf, stubFetch } from '../testing.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('SocialSdkPage', () => {
  it('accepts the terms, and saves an OIDC provider showing the issuer error by field', async () => {
    const user = userEvent.setup();
    const app = makeApp();
    const fetch = stubFetch(
      // No provider saved yet: an empty list, an empty form.
      () => json(200, []),
      () => json(200, { ...app, social_sdk_terms_accepted: true }),
      () =>
        json(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: {
            issuer: { _errors: [{ code: 'X', message: 'must name a host, not an IP address' }] },
          },
        }),
    );
    render(
      <AppHarness app={app}>
        <SocialSdkPage />
      </AppHarness>,
    );
    await vi.waitFor(() => {
      expect(fetch).toHaveBeenCalledTimes(1);
    });
    expect(requestOf(fetch, 0)).toMatchObject({
      method: 'GET',
      url: `/api/v10/applications/${app.id}/identity-providers`,
    });
    expect(screen.queryByRole('alert')).toBeNull();

    const terms = screen.getByRole('switch', { name: 'I accept the Social SDK terms' });
    await user.click(terms);
    expect(requestOf(fetch, 1).body).toEqual({ social_sdk_terms_accepted: true });
    await vi.waitFor(() => {
      expect(terms.getAttribute('aria-checked')).toBe('true');
    });

    await user.type(screen.getByLabelText('Issuer'), 'https://10.0.0.1');
    await user.type(screen.getByLabelText('OIDC Client ID'), 'game');
    await user.click(screen.getByRole('button', { name: 'Save Provider' }));
    expect(requestOf(fetch, 2)).toEqual({
      method: 'PUT',
      url: `/api/v10/applications/${app.id}/identity-providers/oidc`,
      body: { issuer: 'https://10.0.0.1', client_id: 'game' },
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'must name a host, not an IP address',
    );
    expect(screen.getByLabelText('Issuer').getAttribute('aria-invalid')).toBe('true');
  });
});
