import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { StrictMode } from 'react';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { LoginLink, loginLinkCode } from './LoginLink.js';
import { getToken, setToken } from '../lib/session.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setToken(null);
  history.replaceState(null, '', '/');
});

function respond(status: number, body: unknown) {
  const fetch = vi.fn<(url: string, init?: RequestInit) => Promise<Response>>(() =>
    Promise.resolve(
      new Response(JSON.stringify(body), {
        status,
        headers: { 'content-type': 'application/json' },
      }),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** The portal's login page, nested under /developers as main.tsx nests it. */
function renderPortalLogin(url: string) {
  history.replaceState(null, '', url);
  const memory = memoryLocation({ path: url.split('#')[0] ?? url, record: true });
  render(
    <StrictMode>
      <Router hook={memory.hook}>
        <Router base="/developers">
          <LoginLink home="/developers/applications">
            <form aria-label="Log in" />
          </LoginLink>
        </Router>
      </Router>
    </StrictMode>,
  );
  return memory;
}

describe('LoginLink', () => {
  it('reads the code from the fragment only', () => {
    expect(loginLinkCode('#code=abc-_1')).toBe('abc-_1');
    expect(loginLinkCode('#code=')).toBeNull();
    expect(loginLinkCode('')).toBeNull();
    expect(loginLinkCode('#other=1')).toBeNull();
  });

  it('trades the code for a session once, clears it from the URL, and goes on to ?next=', async () => {
    const fetch = respond(200, { token: 'session-token', user_id: '1' });
    const memory = renderPortalLogin(
      '/developers/login?next=%2Fdevelopers%2Fapplications%2F9#code=c0de',
    );
    expect(screen.getByRole('status').textContent).toBe('Logging you in…');
    expect(location.hash).toBe('');
    expect(location.pathname + location.search).toBe(
      '/developers/login?next=%2Fdevelopers%2Fapplications%2F9',
    );
    await vi.waitFor(() => {
      expect(memory.history.at(-1)).toBe('/developers/applications/9');
    });
    expect(getToken()).toBe('session-token');
    // Sent once, even though StrictMode runs the effect twice.
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = fetch.mock.calls[0] ?? [];
    expect(url).toBe('/api/v10/auth/login-link');
    expect(init?.body).toBe(JSON.stringify({ code: 'c0de' }));
  });

  it("shows the API's message and the normal form when the code does not work", async () => {
    respond(400, {
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        code: {
          _errors: [
            { code: 'LOGIN_LINK_INVALID', message: 'This login link is invalid, used or expired.' },
          ],
        },
      },
    });
    renderPortalLogin('/developers/login#code=used');
    expect((await screen.findByRole('alert')).textContent).toBe(
      'The login link did not work: This login link is invalid, used or expired. Log in below instead.',
    );
    expect(screen.getByRole('form', { name: 'Log in' })).toBeDefined();
    expect(getToken()).toBeNull();
  });

  it("without a code, asks once for the page cookie's session and shows the form when there is none", async () => {
    const fetch = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetch);
    renderPortalLogin('/developers/login');
    expect(screen.getByRole('status').textContent).toBe('Checking your sign-in…');
    expect(await screen.findByRole('form', { name: 'Log in' })).toBeDefined();
    // No session is not an error to show.
    expect(screen.queryByRole('alert')).toBeNull();
    expect(fetch).toHaveBeenCalledTimes(1);
    const [url, init] = (fetch.mock.calls[0] ?? []) as unknown as [string, RequestInit];
    expect(url).toBe('/api/v10/auth/session');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(getToken()).toBeNull();
  });

  it("without a code, takes the page cookie's session and goes on", async () => {
    respond(200, { token: 'cookie-session', user_id: '1' });
    const memory = renderPortalLogin('/developers/login');
    await vi.waitFor(() => {
      expect(memory.history.at(-1)).toBe('/developers/applications');
    });
    expect(getToken()).toBe('cookie-session');
  });
});
