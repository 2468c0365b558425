#!/usr/bin/env node
// A tiny static server for the browser example: the page (examples/sdk-browser/) at `/`, and the
// SDK's one-file bundle (packages/sdk/dist/bundle/, made by `npm run build`) at `/sdk/`. The page
// then runs on its own origin, as a game's web page would, and calls the API across origins.
//
//   node examples/sdk-browser/serve.js [--port 5180]
//
// Register `http://127.0.0.1:<port>/callback.html` as a redirect URI of a public-client
// application, then open the address it prints with `?api=<API base>&app=<application id>`.
import console from 'node:console';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import process from 'node:process';
import { URL, fileURLToPath } from 'node:url';

const PAGE_DIR = fileURLToPath(new URL('./', import.meta.url));
const BUNDLE_DIR = fileURLToPath(new URL('../../packages/sdk/dist/bundle/', import.meta.url));
const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
};

const portArg = process.argv.indexOf('--port');
const port = portArg === -1 ? 5180 : Number(process.argv[portArg + 1]);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error('Usage: node examples/sdk-browser/serve.js [--port <0-65535>]');
  process.exit(2);
}
if (!existsSync(join(BUNDLE_DIR, 'guildhall-social-sdk.js'))) {
  console.error(`The SDK bundle is not built (${BUNDLE_DIR}): run \`npm run build\` first.`);
  process.exit(2);
}

/** The file a URL path names inside one of the two folders, or null (no `..` escapes). */
function fileFor(pathname) {
  const [root, rest] = pathname.startsWith('/sdk/')
    ? [BUNDLE_DIR, pathname.slice('/sdk/'.length)]
    : [PAGE_DIR, pathname === '/' ? 'index.html' : pathname.slice(1)];
  const file = normalize(join(root, decodeURIComponent(rest)));
  if (!file.startsWith(root.endsWith(sep) ? root : root + sep)) return null;
  if (extname(file) === '' || !(extname(file) in TYPES) || !existsSync(file)) return null;
  return file;
}

const server = createServer((req, res) => {
  const { pathname } = new URL(req.url ?? '/', 'http://localhost');
  let file = null;
  try {
    file = req.method === 'GET' || req.method === 'HEAD' ? fileFor(pathname) : null;
  } catch {
    file = null; // a malformed escape
  }
  if (file === null || file.endsWith('serve.js')) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found\n');
    return;
  }
  res.writeHead(200, { 'content-type': TYPES[extname(file)], 'cache-control': 'no-store' });
  res.end(req.method === 'HEAD' ? undefined : readFileSync(file));
});

server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  console.log(`Serving the SDK browser example on http://127.0.0.1:${address.port}/`);
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    server.close();
    process.exit(0);
  });
}
