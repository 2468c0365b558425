/**
 * The browser platform: the page's WebSocket, links in a new tab, and the authorize popup. The
 * popup shows the server's authorize page, which redirects to a page of the game's own origin
 * (`callback.html` beside the game's page by default) that calls `completeAuthorize()`: it hands
 * the code to the game's page with `postMessage`, addressed to the game's origin only, and the
 * game's page accepts it only from that popup, that origin, and with the state it sent.
 *
 * @module
 */
import { ErrorType } from '../enums.js';
import { SdkError, validationError } from '../errors.js';
import {
  DEFAULT_AUTHORIZE_TIMEOUT_MS,
  authorizeAborted,
  authorizeTimedOut,
  type AuthorizeRedirectRequest,
  type AuthorizeRedirectResult,
  type Platform,
} from '../platform.js';

/** The `type` of the message `completeAuthorize()` posts. */
const MESSAGE_TYPE = 'guildhall-social-sdk:authorize';
/** How often the popup is checked for having been closed by the person (ms). */
const CLOSED_POLL_MS = 500;
/**
 * How long a closed popup may still hand its code over (ms). The callback page posts its message
 * and then closes; the message and the closing reach this page by different task queues, so the
 * poll can see the popup closed before the message it sent is delivered.
 */
const CLOSED_GRACE_MS = 1_000;
const POPUP_FEATURES = 'popup,width=520,height=760';

interface AuthorizeMessage {
  type: typeof MESSAGE_TYPE;
  state: string | null;
  code: string | null;
  error: string | null;
  errorDescription: string | null;
}

function isAuthorizeMessage(data: unknown): data is AuthorizeMessage {
  return (
    typeof data === 'object' && data !== null && (data as { type?: unknown }).type === MESSAGE_TYPE
  );
}

export function browserPlatform(): Platform {
  return {
    name: 'browser',
    WebSocket: globalThis.WebSocket,
    authorizeTimeoutMs: DEFAULT_AUTHORIZE_TIMEOUT_MS,
    openUrl: (url) => {
      globalThis.open(url, '_blank', 'noopener');
      return Promise.resolve();
    },
    authorizeRedirect(request) {
      return popupAuthorize(request, this.authorizeTimeoutMs);
    },
    registerLaunch: (_applicationId, _command, logger) => {
      logger.warn(
        'registerLaunchCommand: a web page cannot register a launch command; the browser opens your page by its URL.',
      );
      return Promise.resolve(false);
    },
    voiceUnavailable: BROWSER_NO_VOICE,
    loadVoice: () => Promise.reject(new Error(BROWSER_NO_VOICE)),
  };
}

/**
 * Why the browser build has no voice (docs/sdk.md, Voice): the media travel over UDP, which a
 * page cannot open, and the end-to-end encryption (DAVE) has no maintained browser implementation.
 */
export const BROWSER_NO_VOICE =
  'the browser build of the SDK has no voice: call media travel over UDP, which a web page cannot open, and their end-to-end encryption (DAVE) has no maintained browser implementation. Use the Node build (docs/sdk.md, Voice).';

/** The redirect URI: the game's choice, else `callback.html` beside the page; same origin only. */
function popupRedirectUri(chosen: string | null): string {
  const page = new URL(globalThis.location.href);
  const uri = new URL(chosen ?? 'callback.html', page);
  uri.hash = '';
  if (uri.origin !== page.origin) {
    throw validationError(
      `authorize: the redirect URI ${uri.href} is not on this page's origin (${page.origin}); the callback page must be on the game's origin so that completeAuthorize() can hand the code back.`,
    );
  }
  return uri.href;
}

function popupAuthorize(
  request: AuthorizeRedirectRequest,
  timeoutMs: number,
): Promise<AuthorizeRedirectResult> {
  const { logger, signal } = request;
  let redirectUri: string;
  try {
    redirectUri = popupRedirectUri(request.redirectUri);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  const expectedOrigin = new URL(redirectUri).origin;
  // Opened at once, inside the caller's click handler, or the browser blocks it.
  const popup = globalThis.open(
    request.authorizeUrl(redirectUri),
    'guildhall-authorize',
    POPUP_FEATURES,
  );
  if (popup === null) {
    return Promise.reject(
      new SdkError(
        'authorize: the browser blocked the authorization popup. Call authorize() directly from a click (or key) handler, or allow popups for this site.',
        { type: ErrorType.Aborted },
      ),
    );
  }
  logger.verbose('The authorize popup is open.');
  return new Promise<AuthorizeRedirectResult>((resolve, reject) => {
    let settled = false;
    let closedGrace: ReturnType<typeof setTimeout> | undefined;
    const finish = (outcome: { result: AuthorizeRedirectResult } | { error: SdkError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(closedGrace);
      clearInterval(closedPoll);
      globalThis.removeEventListener('message', onMessage);
      signal.removeEventListener('abort', onAbort);
      if (!popup.closed) popup.close();
      if ('result' in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    const onMessage = (event: MessageEvent) => {
      // Only the popup we opened, once it is on the redirect's origin, with our message.
      if (event.source !== popup || event.origin !== expectedOrigin) return;
      if (!isAuthorizeMessage(event.data)) return;
      const message = event.data;
      if (message.state !== request.state) {
        logger.warn('The authorize popup came back with another state; it was ignored.');
        return;
      }
      if (message.error !== null) {
        finish({
          error: new SdkError(
            message.error === 'access_denied'
              ? 'authorize: the person declined the authorization.'
              : `authorize: the server refused the authorization: ${message.error}${message.errorDescription === null ? '' : ` (${message.errorDescription})`}.`,
            { type: ErrorType.AuthorizationFailed, oauthError: message.error },
          ),
        });
        return;
      }
      if (message.code === null || message.code === '') return;
      finish({ result: { code: message.code, redirectUri } });
    };
    const onAbort = () => {
      finish({ error: authorizeAborted() });
    };
    const timer = setTimeout(() => {
      finish({ error: authorizeTimedOut(timeoutMs) });
    }, timeoutMs);
    const closedPoll = setInterval(() => {
      if (!popup.closed || closedGrace !== undefined) return;
      clearInterval(closedPoll);
      closedGrace = setTimeout(() => {
        finish({
          error: new SdkError(
            'authorize: the authorization window was closed before it finished; call authorize() again to sign in.',
            { type: ErrorType.Aborted },
          ),
        });
      }, CLOSED_GRACE_MS);
    }, CLOSED_POLL_MS);
    globalThis.addEventListener('message', onMessage);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Call this from the redirect page (`callback.html`) of an authorize popup: it hands the code
 * (or the error) to the game's page that opened the popup, addressed to this page's origin only,
 * removes the code from the address bar, and closes the popup. Returns false when the page was
 * not opened by a game's page (opened directly, or the opener is gone).
 */
export function completeAuthorize(): boolean {
  const here = new URL(globalThis.location.href);
  const params = here.searchParams;
  const message: AuthorizeMessage = {
    type: MESSAGE_TYPE,
    state: params.get('state'),
    code: params.get('code'),
    error: params.get('error'),
    errorDescription: params.get('error_description'),
  };
  // The code leaves the address bar and the history at once.
  globalThis.history.replaceState(null, '', here.pathname);
  const opener = (globalThis as { opener?: Window | null }).opener ?? null;
  if (opener === null || opener.closed) return false;
  opener.postMessage(message, here.origin);
  globalThis.close();
  return true;
}
