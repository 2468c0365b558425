/**
 * The session token, kept as the platform's own web client keeps it: in localStorage under
 * `token`, sent as the bare `Authorization` header; the API never takes a cookie as authorization
 * (so no request the page does not make itself acts for the person, and no CSRF). Pages react to login and logout through subscribe().
 */
const KEY = 'token';
const listeners = new Set<() => void>();

function storage(): Storage | null {
  try {
    return localStorage;
  } catch {
    // A browser with storage turned off: the session lasts as long as the page.
    return null;
  }
}

let memoryToken: string | null = null;

export function getToken(): string | null {
  return storage()?.getItem(KEY) ?? memoryToken;
}

export function setToken(token: string | null): void {
  memoryToken = token;
  const store = storage();
  if (token === null) store?.removeItem(KEY);
  else store?.setItem(KEY, token);
  for (const listener of listeners) listener();
}

export function subscribeToken(listener: () => void): () => void {
  listeners.add(listener);
  // Another tab logging in or out changes this one too.
  const onStorage = (event: StorageEvent) => {
    if (event.key === KEY || event.key === null) listener();
  };
  addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    removeEventListener('storage', onStorage);
  };
}
