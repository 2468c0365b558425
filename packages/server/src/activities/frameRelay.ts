/**
 * The frame relay: a page the proxy host serves on every activity origin, at reserved paths
 * under `/.guildhall/`, between the web client and the activity (docs/activities.md#the-frame).
 *
 * Why: the embedded app SDK accepts messages only from its own origin, the platform's client
 * origins (`https://discord.com`…) and `null`, and posts to `document.referrer`. The Guildhall
 * web client is none of these, so it frames this relay on the activity's origin, and the relay
 * frames the activity (`/` with the same query). The SDK sees its parent on its own origin; the
 * client checks that every message comes from the relay's window on the activity origin and
 * posts back only to that origin. The relay forwards between the two, and only from the
 * activity's window on its own origin or from its parent on the client origin the client named
 * (which must be its actual ancestor, and `frame-ancestors` only lets the client frame it).
 *
 * @module
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The relay page (`?client_origin=<the web client's origin>&<the activity's query>`). */
export const FRAME_RELAY_PATH = '/.guildhall/frame';
/** Its script (the activity CSP allows no inline script). */
export const FRAME_RELAY_SCRIPT_PATH = '/.guildhall/frame.js';

/** Features the activity may use when the client granted them to the relay (`allow`). */
export const ACTIVITY_FRAME_ALLOW =
  'autoplay; clipboard-write; encrypted-media; fullscreen; gamepad; web-share';

const RELAY_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Activity</title>
<script src="${FRAME_RELAY_SCRIPT_PATH}" defer></script>
</head>
<body></body>
</html>
`;

/** Runs in the relay page: frames the activity and forwards the frame protocol both ways. */
const RELAY_SCRIPT = `'use strict';
(function () {
  var params = new URLSearchParams(location.search);
  var clientOrigin = params.get('client_origin');
  params.delete('client_origin');
  if (clientOrigin === null || window.parent === window) return;
  // The client origin named in the URL must be the page that framed the relay.
  var ancestors = location.ancestorOrigins;
  if (ancestors !== undefined && ancestors[0] !== clientOrigin) return;
  var frame = document.createElement('iframe');
  frame.src = '/?' + params.toString();
  frame.title = 'Activity';
  frame.allow = ${JSON.stringify(ACTIVITY_FRAME_ALLOW)};
  document.documentElement.style.height = '100%';
  document.body.style.cssText = 'margin:0;height:100%;overflow:hidden;background:#000';
  frame.style.cssText = 'border:0;width:100%;height:100%;display:block';
  window.addEventListener('message', function (event) {
    if (event.source === frame.contentWindow && event.origin === location.origin) {
      window.parent.postMessage(event.data, clientOrigin);
    } else if (event.source === window.parent && event.origin === clientOrigin) {
      if (frame.contentWindow !== null) frame.contentWindow.postMessage(event.data, location.origin);
    }
  });
  document.body.appendChild(frame);
})();
`;

/**
 * Answers a GET or HEAD of a relay path on an activity origin with the frame's security headers
 * (proxyHeaders.ts); returns false for any other request (the proxy forwards it).
 */
export function serveFrameRelay(
  request: IncomingMessage,
  response: ServerResponse,
  headers: Record<string, string>,
): boolean {
  const url = request.url ?? '/';
  const queryAt = url.indexOf('?');
  const answer = frameRelayResponse(queryAt === -1 ? url : url.slice(0, queryAt));
  if (answer === null || (request.method !== 'GET' && request.method !== 'HEAD')) return false;
  const body = Buffer.from(answer.body, 'utf8');
  response.writeHead(200, {
    ...headers,
    'content-type': answer.contentType,
    'content-length': String(body.length),
    'cache-control': 'no-cache',
  });
  response.end(request.method === 'HEAD' ? undefined : body);
  return true;
}

/** The relay's answer for a reserved path, or null when the path is the activity's. */
export function frameRelayResponse(pathname: string): { contentType: string; body: string } | null {
  if (pathname === FRAME_RELAY_PATH) {
    return { contentType: 'text/html; charset=utf-8', body: RELAY_HTML };
  }
  if (pathname === FRAME_RELAY_SCRIPT_PATH) {
    return { contentType: 'text/javascript; charset=utf-8', body: RELAY_SCRIPT };
  }
  return null;
}
