/**
 * The Node platform: `ws` for the gateway, a loopback listener for the authorize redirect
 * (RFC 8252 §7.3: `http://127.0.0.1:<free port>/callback`, registered as
 * `http://127.0.0.1/callback`), and launch registration as an XDG desktop entry on Linux.
 *
 * @module
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { homedir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { ErrorType } from '../enums.js';
import { SdkError, validationError } from '../errors.js';
import type { WebSocketConstructor } from '../gateway.js';
import type { Logger } from '../log.js';
import {
  DEFAULT_AUTHORIZE_TIMEOUT_MS,
  authorizeAborted,
  authorizeTimedOut,
  type AuthorizeRedirectRequest,
  type AuthorizeRedirectResult,
  type Platform,
} from '../platform.js';

/** The loopback redirect a game registers for the Node SDK (any port is then allowed). */
export const NODE_DEFAULT_REDIRECT = 'http://127.0.0.1/callback';

export function nodePlatform(): Platform {
  return {
    name: 'node',
    WebSocket: WebSocket as unknown as WebSocketConstructor,
    authorizeTimeoutMs: DEFAULT_AUTHORIZE_TIMEOUT_MS,
    openUrl: (url, logger) => {
      logger.info(`Open this address in a browser: ${url}`);
      return Promise.resolve();
    },
    authorizeRedirect(request) {
      return loopbackAuthorize(request, this.authorizeTimeoutMs);
    },
    registerLaunch: registerDesktopEntry,
    voiceUnavailable: null,
    // Loaded on the first call only: DAVE (a native module) and Opus stay out of games without voice.
    loadVoice: async () => (await import('./nodeVoice.js')).nodeVoice,
  };
}

/** Where the listener binds and which path it answers, from the game's redirect URI if any. */
function listenerTarget(redirectUri: string | null): { port: number; path: string } {
  if (redirectUri === null) return { port: 0, path: '/callback' };
  const match = /^http:\/\/127\.0\.0\.1(?::([1-9]\d{0,4}))?(\/[^?#]*)$/.exec(redirectUri);
  const port = Number(match?.[1] ?? 0);
  if (match === null || port > 65535) {
    throw validationError(
      `authorize: in Node the redirect URI must be http://127.0.0.1[:port]/path (got "${redirectUri}"); leave ClientOptions.redirectUri unset to use ${NODE_DEFAULT_REDIRECT} on a free port.`,
    );
  }
  return { port, path: match[2] ?? '/callback' };
}

const PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  // One answer per connection: nothing stays open to the listener once it is closed.
  connection: 'close',
} as const;

function answer(response: ServerResponse, status: number, text: string): void {
  const escaped = text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  response.writeHead(status, PAGE_HEADERS);
  response.end(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Guildhall</title></head>` +
      `<body style="font-family:sans-serif;margin:3rem"><p>${escaped}</p></body></html>`,
  );
}

/**
 * Listens on 127.0.0.1 for the redirect, opens the authorize page, and resolves with the code
 * when the browser comes back with the right state. The listener is closed whatever the outcome:
 * the code, an error from the server, the timeout, or an abort.
 */
function loopbackAuthorize(
  request: AuthorizeRedirectRequest,
  timeoutMs: number,
): Promise<AuthorizeRedirectResult> {
  const { logger, signal } = request;
  let target: { port: number; path: string };
  try {
    target = listenerTarget(request.redirectUri);
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
  return new Promise<AuthorizeRedirectResult>((resolve, reject) => {
    let redirectUri = '';
    let settled = false;
    const server = createServer((req, res) => {
      onRequest(req, res);
    });
    const finish = (outcome: { result: AuthorizeRedirectResult } | { error: SdkError }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      // Answers already written finish on their connections (each closes after its answer).
      server.close();
      server.closeIdleConnections();
      logger.verbose('The authorize listener is closed.');
      if ('result' in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    const onAbort = () => {
      finish({ error: authorizeAborted() });
    };
    const timer = setTimeout(() => {
      finish({ error: authorizeTimedOut(timeoutMs) });
    }, timeoutMs);
    if (signal.aborted) {
      onAbort();
      return;
    }
    signal.addEventListener('abort', onAbort, { once: true });

    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      if (req.method !== 'GET' || url.pathname !== target.path) {
        answer(res, 404, 'Not found.');
        return;
      }
      if (settled) {
        answer(res, 410, 'This authorization is over. Return to the game.');
        return;
      }
      const params = url.searchParams;
      if (params.get('state') !== request.state) {
        // Not the browser we sent (or a stale tab): keep waiting for the right one.
        logger.warn('The authorize redirect came back with another state; it was ignored.');
        answer(res, 400, 'This link does not belong to the authorization under way.');
        return;
      }
      const error = params.get('error');
      if (error !== null) {
        const description = params.get('error_description');
        answer(res, 200, 'The authorization was not granted. You may close this window.');
        finish({
          error: new SdkError(
            error === 'access_denied'
              ? 'authorize: the person declined the authorization.'
              : `authorize: the server refused the authorization: ${error}${description === null ? '' : ` (${description})`}.`,
            { type: ErrorType.AuthorizationFailed, oauthError: error },
          ),
        });
        return;
      }
      const code = params.get('code');
      if (code === null || code === '') {
        answer(res, 400, 'The redirect carries no code.');
        return;
      }
      answer(res, 200, 'You are signed in. You may close this window and return to the game.');
      finish({ result: { code, redirectUri } });
    };

    server.on('error', (cause) => {
      finish({
        error: new SdkError(
          `authorize: the loopback listener could not start on 127.0.0.1:${target.port} (${cause.message}); leave ClientOptions.redirectUri unset to use a free port.`,
          { type: ErrorType.NetworkError, cause },
        ),
      });
    });
    server.listen(target.port, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : target.port;
      redirectUri = `http://127.0.0.1:${port}${target.path}`;
      logger.verbose(`Waiting for the authorize redirect on ${redirectUri}`);
      request.open(request.authorizeUrl(redirectUri)).catch((cause: unknown) => {
        finish({
          error: new SdkError(
            `authorize: the authorize page could not be opened (${String(cause)}).`,
            { type: ErrorType.Aborted, cause },
          ),
        });
      });
    });
  });
}

/** A desktop entry's value: no line breaks (they would start another key). */
function desktopValue(value: string): string {
  return value.replace(/[\r\n]+/g, ' ');
}

/**
 * Linux: writes `$XDG_DATA_HOME/applications/guildhall-<id>.desktop`, the handler of the
 * `platform-<id>:` URL scheme running `command` with the URL. Elsewhere false, with a log line.
 */
async function registerDesktopEntry(
  applicationId: string,
  command: string,
  logger: Logger,
): Promise<boolean> {
  if (process.platform !== 'linux') {
    logger.warn(
      `registerLaunchCommand: only Linux desktop entries are written by this SDK (this is ${process.platform}); register the platform-${applicationId}: URL scheme with your installer.`,
    );
    return false;
  }
  // eslint-disable-next-line no-restricted-properties -- the XDG base directory spec names it
  const xdgDataHome = process.env['XDG_DATA_HOME'];
  const dataHome =
    xdgDataHome !== undefined && xdgDataHome !== ''
      ? xdgDataHome
      : join(homedir(), '.local', 'share');
  const folder = join(dataHome, 'applications');
  const file = join(folder, `guildhall-${applicationId}.desktop`);
  const scheme = `platform-${applicationId}`;
  const entry = [
    '[Desktop Entry]',
    'Type=Application',
    `Name=${desktopValue(`Guildhall game ${applicationId}`)}`,
    `Exec=${desktopValue(command)}`,
    'NoDisplay=true',
    'Terminal=false',
    `MimeType=x-scheme-handler/${scheme};`,
    '',
  ].join('\n');
  await mkdir(folder, { recursive: true });
  await writeFile(file, entry, { mode: 0o644 });
  logger.info(
    `Registered ${scheme}: in ${file}; run "xdg-mime default guildhall-${applicationId}.desktop x-scheme-handler/${scheme}" if another handler is the default.`,
  );
  return true;
}
