/**
 * The browser platform's authorize popup, with the window functions it uses stubbed (the real
 * popup, with the server's pages in Chromium, is browser.test.ts): a blocked popup, a popup the
 * person closes, and the checks on what comes back (the popup, the origin, the state).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ErrorType, LoggingSeverity, SdkError } from '../src/node.js';
import { Logger } from '../src/log.js';
import { browserPlatform, completeAuthorize } from '../src/platform/browser.js';
import type { AuthorizeRedirectRequest } from '../src/platform.js';

const GAME = 'https://game.example.test';

interface FakePopup {
  closed: boolean;
  close(): void;
}

function stubWindow(popup: FakePopup | null) {
  const listeners = new Set<(event: MessageEvent) => void>();
  const opened: string[] = [];
  vi.stubGlobal('location', new URL(`${GAME}/play/index.html`));
  vi.stubGlobal('open', (url: string) => {
    opened.push(url);
    return popup;
  });
  vi.stubGlobal('addEventListener', (type: string, listener: (event: MessageEvent) => void) => {
    if (type === 'message') listeners.add(listener);
  });
  vi.stubGlobal('removeEventListener', (type: string, listener: (event: MessageEvent) => void) => {
    if (type === 'message') listeners.delete(listener);
  });
  const post = (data: unknown, from: { origin?: string; source?: unknown } = {}) => {
    for (const listener of [...listeners]) {
      listener({ data, origin: from.origin ?? GAME, source: from.source ?? popup } as MessageEvent);
    }
  };
  return { opened, post, listeners };
}

function request(signal = new AbortController().signal): AuthorizeRedirectRequest & {
  warnings: string[];
} {
  const logger = new Logger();
  const warnings: string[] = [];
  logger.add((line) => warnings.push(line), LoggingSeverity.Warning);
  return {
    authorizeUrl: (redirectUri) =>
      `https://chat.example.test/oauth2/authorize?redirect_uri=${encodeURIComponent(redirectUri)}`,
    state: 'the-state',
    redirectUri: null,
    open: () => Promise.resolve(),
    signal,
    logger,
    warnings,
  };
}

const message = (fields: Record<string, string | null>) => ({
  type: 'guildhall-social-sdk:authorize',
  state: null,
  code: null,
  error: null,
  errorDescription: null,
  ...fields,
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the browser authorize popup', () => {
  it('takes the code only from its popup, on the redirect origin, with its state', async () => {
    const popup = { closed: false, close: vi.fn() };
    const win = stubWindow(popup);
    const req = request();
    const pending = browserPlatform().authorizeRedirect(req);
    expect(win.opened).toEqual([
      `https://chat.example.test/oauth2/authorize?redirect_uri=${encodeURIComponent(`${GAME}/play/callback.html`)}`,
    ]);
    win.post(message({ state: 'the-state', code: 'from-elsewhere' }), { source: {} });
    win.post(message({ state: 'the-state', code: 'wrong-origin' }), {
      origin: 'https://evil.example.test',
    });
    win.post({ type: 'something else', code: 'x' });
    win.post(message({ state: 'another-state', code: 'stale' }));
    win.post(message({ state: 'the-state', code: 'the-code' }));
    await expect(pending).resolves.toEqual({
      code: 'the-code',
      redirectUri: `${GAME}/play/callback.html`,
    });
    expect(req.warnings.join('\n')).toMatch(/another state/);
    expect(popup.close).toHaveBeenCalled();
    expect(win.listeners.size).toBe(0);
  });

  it('a blocked popup rejects at once and says what to do', async () => {
    stubWindow(null);
    const error = await browserPlatform()
      .authorizeRedirect(request())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SdkError);
    expect(error).toMatchObject({ type: ErrorType.Aborted });
    expect((error as SdkError).message).toMatch(/blocked the authorization popup.*click/);
  });

  it('a popup the person closes rejects; so does a declined consent, and abort', async () => {
    const popup = { closed: false, close: vi.fn() };
    stubWindow(popup);
    const closing = browserPlatform().authorizeRedirect(request());
    popup.closed = true;
    await expect(closing).rejects.toMatchObject({
      type: ErrorType.Aborted,
      message: expect.stringMatching(/window was closed/) as unknown,
    });

    const open = { closed: false, close: vi.fn() };
    const win = stubWindow(open);
    const declined = browserPlatform().authorizeRedirect(request());
    win.post(message({ state: 'the-state', error: 'access_denied' }));
    await expect(declined).rejects.toMatchObject({
      type: ErrorType.AuthorizationFailed,
      oauthError: 'access_denied',
    });

    const controller = new AbortController();
    const aborted = browserPlatform().authorizeRedirect(request(controller.signal));
    controller.abort();
    await expect(aborted).rejects.toMatchObject({ type: ErrorType.Aborted });
  });

  it('takes a code that arrives just after the popup is seen closed', async () => {
    vi.useFakeTimers();
    try {
      const popup = { closed: false, close: vi.fn() };
      const win = stubWindow(popup);
      const pending = browserPlatform().authorizeRedirect(request());
      // The callback page posted and closed itself; the poll sees it closed before the message.
      popup.closed = true;
      await vi.advanceTimersByTimeAsync(600);
      win.post(message({ state: 'the-state', code: 'late-code' }));
      await expect(pending).resolves.toMatchObject({ code: 'late-code' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('a redirect URI on another origin is refused', async () => {
    stubWindow({ closed: false, close: vi.fn() });
    const req = { ...request(), redirectUri: 'https://elsewhere.example.test/callback.html' };
    await expect(browserPlatform().authorizeRedirect(req)).rejects.toMatchObject({
      type: ErrorType.ValidationError,
    });
  });
});

describe('completeAuthorize', () => {
  it('posts the code to the opener on its own origin only, then clears the address', () => {
    const posted: [unknown, string][] = [];
    const replaced: string[] = [];
    vi.stubGlobal('location', new URL(`${GAME}/play/callback.html?code=c0de&state=s1`));
    vi.stubGlobal('opener', {
      closed: false,
      postMessage: (data: unknown, origin: string) => posted.push([data, origin]),
    });
    vi.stubGlobal('history', {
      replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url),
    });
    const close = vi.fn();
    vi.stubGlobal('close', close);
    expect(completeAuthorize()).toBe(true);
    expect(posted).toEqual([[message({ code: 'c0de', state: 's1' }), GAME]]);
    expect(replaced).toEqual(['/play/callback.html']);
    expect(close).toHaveBeenCalled();

    vi.stubGlobal('opener', null);
    expect(completeAuthorize()).toBe(false);
  });
});
