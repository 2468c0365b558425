import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Router } from 'wouter';
import { memoryLocation } from 'wouter/memory-location';
import { RegisterPage } from './AuthPages.js';
import { getToken, setToken } from '../lib/session.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setToken(null);
});

function respond(status: number, body: unknown) {
  const fetch = vi.fn(() =>
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

async function fillAndSubmit() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'ada@example.test');
  await user.type(screen.getByLabelText('Username'), 'Ada');
  await user.type(screen.getByLabelText('Password'), 'correct horse');
  await user.click(screen.getByRole('button', { name: 'Continue' }));
}

describe('RegisterPage', () => {
  it("shows the API's message under the field it names", async () => {
    respond(400, {
      code: 50035,
      message: 'Invalid Form Body',
      errors: {
        username: {
          _errors: [
            { code: 'BASE_TYPE_INVALID', message: 'Username can only contain lowercase letters.' },
          ],
        },
      },
    });
    const { hook } = memoryLocation({ path: '/register' });
    render(
      <Router hook={hook}>
        <RegisterPage home="/channels/@me" otherPath="/login" />
      </Router>,
    );
    await fillAndSubmit();
    const username = screen.getByLabelText('Username');
    expect(await screen.findByText('Username can only contain lowercase letters.')).toBeDefined();
    expect(username.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBeNull();
    expect(getToken()).toBeNull();
  });

  it('keeps the token and goes home once registered', async () => {
    const fetch = respond(201, { token: 'session-token', user_id: '1' });
    const location = memoryLocation({ path: '/register', record: true });
    render(
      <Router hook={location.hook}>
        <RegisterPage home="/channels/@me" otherPath="/login" />
      </Router>,
    );
    await fillAndSubmit();
    await vi.waitFor(() => {
      expect(location.history.at(-1)).toBe('/channels/@me');
    });
    expect(getToken()).toBe('session-token');
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/v10/auth/register');
    expect(JSON.parse(init.body as string)).toEqual({
      email: 'ada@example.test',
      username: 'Ada',
      password: 'correct horse',
    });
    expect(new Headers(init.headers).get('authorization')).toBeNull();
  });

  it('goes home from the site root inside the portal router', async () => {
    respond(201, { token: 'session-token', user_id: '1' });
    const location = memoryLocation({ path: '/developers/register', record: true });
    render(
      <Router hook={location.hook} base="/developers">
        <RegisterPage home="/developers/applications" otherPath="/developers/login" />
      </Router>,
    );
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(
      '/developers/login',
    );
    await fillAndSubmit();
    await vi.waitFor(() => {
      expect(location.history.at(-1)).toBe('/developers/applications');
    });
  });
});
