import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api.js';
import { getToken, setToken } from './session.js';

afterEach(() => {
  vi.unstubAllGlobals();
  setToken(null);
});

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const UNAUTHORIZED = { code: 0, message: '401: Unauthorized' };

/** fetch answering by path: the route's answer, and /users/@me's. */
function stubFetch(routeStatus: number, meStatus: number) {
  const fetch = vi.fn((url: string) =>
    Promise.resolve(
      url.endsWith('/users/@me')
        ? json(meStatus, meStatus === 200 ? { id: '1' } : UNAUTHORIZED)
        : json(routeStatus, UNAUTHORIZED),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

describe('api', () => {
  it('keeps the session when only the route refuses a session token', async () => {
    setToken('session');
    const fetch = stubFetch(401, 200);
    await expect(api('GET', '/applications/1/commands')).rejects.toBeInstanceOf(ApiError);
    await vi.waitFor(() => {
      expect(fetch).toHaveBeenCalledTimes(2);
    });
    expect(getToken()).toBe('session');
  });

  it('logs out when the session itself is refused', async () => {
    setToken('revoked');
    stubFetch(401, 401);
    await expect(api('GET', '/users/@me/guilds')).rejects.toMatchObject({ status: 401 });
    await vi.waitFor(() => {
      expect(getToken()).toBeNull();
    });
  });

  it('flattens a 50035 body into messages by field path', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        json(400, {
          code: 50035,
          message: 'Invalid Form Body',
          errors: {
            redirect_uris: {
              0: { _errors: [{ code: 'URL_TYPE_INVALID_URL', message: 'Not a valid URL.' }] },
            },
            name: { _errors: [{ code: 'BASE_TYPE_REQUIRED', message: 'This field is required' }] },
          },
        }),
      ),
    );
    const error = await api('PATCH', '/applications/1', { body: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(50035);
    expect((error as ApiError).fieldErrors()).toEqual({
      'redirect_uris.0': 'Not a valid URL.',
      name: 'This field is required',
    });
  });
});
