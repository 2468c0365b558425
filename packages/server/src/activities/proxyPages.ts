/**
 * @module activities/proxyPages: the proxy host's own answers (no activity, no mapping, a path
 * it does not forward, a target down or too slow, a body too large): a short HTML page with the
 * status, one sentence of reason and the activity frame's security headers, on an HTTP response
 * or written raw on a socket that asked for a WebSocket upgrade.
 */
import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Refusal } from './proxyRoute.js';

function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The page's HTML. */
export function refusalPage(refusal: Refusal): string {
  const title = `${String(refusal.status)} ${STATUS_CODES[refusal.status] ?? 'Error'}`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body><h1>${title}</h1><p>${escapeHtml(refusal.reason)}</p>
<p>This is the Guildhall activity proxy host.</p></body></html>
`;
}

/**
 * Answers the refusal on an HTTP response (nothing sent yet). The connection closes after it
 * when the request body may still be arriving (so it is not read).
 */
export function sendRefusal(
  res: ServerResponse,
  page: { refusal: Refusal; headers: Record<string, string>; close?: boolean },
): void {
  const { refusal } = page;
  const body = refusalPage(refusal);
  res.writeHead(refusal.status, {
    ...page.headers,
    'content-type': 'text/html; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
    ...(page.close === true ? { connection: 'close' } : {}),
  });
  res.end(body);
}

/** Answers the refusal on the socket of an upgrade request, then closes it. */
export function writeRawRefusal(
  socket: Duplex,
  refusal: Refusal,
  headers: Record<string, string>,
): void {
  if (socket.destroyed || !socket.writable) {
    socket.destroy();
    return;
  }
  const body = refusalPage(refusal);
  const lines = [
    `HTTP/1.1 ${String(refusal.status)} ${STATUS_CODES[refusal.status] ?? 'Error'}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'content-type: text/html; charset=utf-8',
    `content-length: ${String(Buffer.byteLength(body))}`,
    'connection: close',
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}
