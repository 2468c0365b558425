import { useEffect, useState, useSyncExternalStore } from 'react';
import type { APIUser } from 'discord-api-types/v10';
import { api } from '../lib/api.js';
import { getToken, setToken, subscribeToken } from '../lib/session.js';

/** The session token, re-read on login and logout (in this tab or another). */
export function useToken(): string | null {
  return useSyncExternalStore(subscribeToken, getToken);
}

/** The logged-in person (`GET /users/@me`), null while loading or when logged out. */
export function useCurrentUser(): APIUser | null {
  const token = useToken();
  const [user, setUser] = useState<APIUser | null>(null);
  useEffect(() => {
    setUser(null);
    if (token === null) return;
    const controller = new AbortController();
    api<APIUser>('GET', '/users/@me', { signal: controller.signal }).then(setUser, () => {
      // Logged out (a 401 clears the token) or aborted: nothing to show.
    });
    return () => {
      controller.abort();
    };
  }, [token]);
  return user;
}

/** Ends the session on the server (the token stops working everywhere it was used) and here. */
export async function logout(): Promise<void> {
  try {
    await api('POST', '/auth/logout', { cookies: true });
  } finally {
    setToken(null);
  }
}

/** Where to go after logging in: `?next=` when it is a path on this site, else the fallback. */
export function nextPath(fallback: string): string {
  const next = new URLSearchParams(location.search).get('next');
  return next !== null && next.startsWith('/') && !next.startsWith('//') ? next : fallback;
}
