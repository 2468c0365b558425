/**
 * The web client (`/`) and the developer portal (`/developers`): the production build of
 * packages/web (Vite's dist), served beside the API. Only the pages' own paths are routes here,
 * so every other unknown path still gets the platform's 404 body, and no API or CDN route is
 * shadowed. Docs: docs/web.md.
 *
 * @module
 */
import { readdirSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../errors/index.js';

export interface WebAppOptions {
  /** The folder of the build (index.html and assets/). */
  webDir: string;
  /** The gateway's URL (ws: or wss:) the pages connect to; read per request (known once listening). */
  gatewayUrl: () => string;
  /** The configured public URL, whose origin serves images too when it differs from the page's. */
  publicUrl: string | null;
  /**
   * Every activity origin as one CSP source (`http://*.activities.localhost:8080`), which the
   * client frames (docs/activities.md#the-frame); read per request, like the gateway's URL.
   */
  activityFrameSource?: () => string | null;
}

/**
 * The client-side routes: each answers index.html and the page's router takes over. `/login`,
 * `/register`, `/channels/...`, `/invite/...` and `/settings/connected-games` (which a game's
 * Social SDK opens) are the platform client's own paths.
 */
export const PAGE_PATHS = [
  '/',
  '/login',
  '/register',
  '/channels/*',
  '/invite/*',
  '/settings/connected-games',
  '/developers',
  '/developers/*',
] as const;

/** A hashed asset name as Vite writes them (`index-B1x2y3z4.js`, `.css`, `.js.map`...). */
const ASSET_NAME = /^[\w-]+(?:\.[\w-]+)+$/;
/** A year: assets are named after their content, so one name never changes meaning. */
const ASSET_MAX_AGE_MS = 365 * 24 * 60 * 60 * 1000;
/** Static files are cheap and a page load asks for several at once: no route bucket. */
const ROUTE = { config: { auth: 'none' as const, rateLimit: false as const } };

function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

/**
 * The pages' Content-Security-Policy: nothing inline, nothing from elsewhere. Scripts and styles
 * come only from this origin (Vite writes them as files); images may be data: or blob: URLs
 * (previews of files being uploaded); the only connections are the API here and the gateway.
 */
export function pageCsp(
  options: Pick<WebAppOptions, 'publicUrl'> & {
    gatewayUrl: string;
    activityFrameSource?: string | null;
  },
) {
  const publicOrigin = options.publicUrl === null ? null : originOf(options.publicUrl);
  /** Sources after the fixed ones, each once, none missing. */
  const plus = (...sources: (string | null)[]) =>
    [...new Set(sources)].flatMap((source) => (source === null ? [] : [` ${source}`])).join('');
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: blob:${plus(publicOrigin)}`,
    `media-src 'self' blob:${plus(publicOrigin)}`,
    `connect-src 'self'${plus(originOf(options.gatewayUrl), publicOrigin)}`,
    "font-src 'self'",
    "manifest-src 'self'",
    // Activities, each on its own origin; nothing else is framed.
    options.activityFrameSource === undefined || options.activityFrameSource === null
      ? "frame-src 'none'"
      : `frame-src ${options.activityFrameSource}`,
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** What every answer here carries. */
function commonHeaders(reply: FastifyReply): FastifyReply {
  return (
    reply
      .header('x-content-type-options', 'nosniff')
      .header('referrer-policy', 'no-referrer')
      // The body depends on Accept-Encoding (the build's Brotli and gzip copies): a shared cache
      // must not hand a Brotli body to a browser that asked for none.
      .header('vary', 'Accept-Encoding')
  );
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** The files at the top of the build besides index.html (Vite's copy of public/: icons...). */
function topLevelFiles(webDir: string): string[] {
  try {
    return readdirSync(webDir, { withFileTypes: true })
      .filter((entry) => entry.isFile() && entry.name !== 'index.html')
      .map((entry) => entry.name)
      .filter((name) => ASSET_NAME.test(name));
  } catch {
    return [];
  }
}

/** Escapes text for HTML content. */
function escapeHtml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** What a page path answers before the pages are built: how to build them. */
function notBuiltPage(webDir: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Guildhall: the web pages are not built</title></head>
<body><h1>The web pages are not built</h1>
<p>The API and the gateway are running; the web client and the developer portal are missing from
<code>${escapeHtml(webDir)}</code>.</p>
<p>Run <code>npm run build</code> (or <code>npm start</code>, which builds them) and start the
server again, or point <code>--web-dir</code> / <code>GUILDHALL_WEB_DIR</code> at a build.</p>
</body></html>
`;
}

/** Registers the pages' routes: index.html for each page path, the hashed assets, public files. */
export async function registerWebApp(app: FastifyInstance, options: WebAppOptions): Promise<void> {
  const { webDir } = options;
  const indexHtml = join(webDir, 'index.html');
  // Only the reply.sendFile decorator: the routes are ours, so none is wider than it should be.
  // The build holds Brotli and gzip copies of its text files (packages/web/scripts/compress.js),
  // sent to browsers that accept them: a page load moves a quarter of the bytes, compressed once.
  const { default: fastifyStatic } = await import('@fastify/static');
  await app.register(fastifyStatic, { root: webDir, serve: false, preCompressed: true });
  let csp: { key: string; value: string } | null = null;
  const currentCsp = () => {
    const gatewayUrl = options.gatewayUrl();
    const activityFrameSource = options.activityFrameSource?.() ?? null;
    const key = `${gatewayUrl} ${activityFrameSource ?? ''}`;
    if (csp?.key !== key) {
      const value = pageCsp({ gatewayUrl, publicUrl: options.publicUrl, activityFrameSource });
      csp = { key, value };
    }
    return csp.value;
  };

  const sendPage = async (reply: FastifyReply) => {
    commonHeaders(reply);
    // Checked per request, so a build made while the server runs is served at once.
    if (!(await isFile(indexHtml))) {
      return reply
        .status(503)
        .header('content-type', 'text/html; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; frame-ancestors 'none'")
        .header('cache-control', 'no-store')
        .send(notBuiltPage(webDir));
    }
    return (
      reply
        .header('content-security-policy', currentCsp())
        .header('x-frame-options', 'DENY')
        // Always revalidated (ETag): a new build's index.html names new assets.
        .header('cache-control', 'no-cache')
        .sendFile('index.html', webDir, { cacheControl: false })
    );
  };

  for (const path of PAGE_PATHS) {
    app.get(path, ROUTE, (_request, reply) => sendPage(reply));
  }

  app.get<{ Params: { '*': string } }>('/assets/*', ROUTE, async (request, reply) => {
    const name = request.params['*'];
    // Vite writes assets flat: anything else (a sub-path, `..`) is not one of ours. A missing
    // file is the platform's 404 here (sendFile's own would reach the 405 of a GET-only path).
    if (!ASSET_NAME.test(name) || !(await isFile(join(webDir, 'assets', name)))) {
      throw new ApiError('NOT_FOUND');
    }
    return commonHeaders(reply).sendFile(join('assets', name), webDir, {
      maxAge: ASSET_MAX_AGE_MS,
      immutable: true,
    });
  });

  for (const name of topLevelFiles(webDir)) {
    app.get(`/${name}`, ROUTE, (_request, reply) =>
      commonHeaders(reply).sendFile(name, webDir, { maxAge: 0 }),
    );
  }
}
