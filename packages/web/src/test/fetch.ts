/**
 * The network boundary of the web tests: `fetch` stubbed with answers the test gives, and the
 * requests it saw. The portal's tests take answers in order (portal/testing.tsx, `stubFetch`);
 * the client's answer by URL with {@link answerFetch}, or by method and API path with
 * client/social/testing.tsx's `fakeApi`, which is built on it.
 *
 * @module
 */
import { vi } from 'vitest';

/** A JSON Response (no body for 204). */
export function json(status: number, body: unknown): Response {
  return new Response(status === 204 ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

/**
 * Stubs `fetch` with `answer`, called with each request's URL and init (a promise never settled
 * keeps a request in flight); returns the requests seen so far, in order, as `[url, init]`.
 */
export function answerFetch(
  answer: (url: string, init: RequestInit) => Response | Promise<Response>,
): [string, RequestInit][] {
  const calls: [string, RequestInit][] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init: RequestInit = {}) => {
      calls.push([url, init]);
      return Promise.resolve(answer(url, init));
    }),
  );
  return calls;
}
