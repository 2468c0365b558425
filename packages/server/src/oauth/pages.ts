import { randomBytes } from 'node:crypto';
import type { GuildRecord } from '../storage/index.js';
import type { AuthorizeRequest } from './authorize.js';
import type { OAuthParams } from './params.js';
import { PERMISSION_LABELS, permissionNames, scopeDescription } from '@guildhall/protocol';

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

/** An HTML page and the headers that must go with it. */
export interface Page {
  status: number;
  html: string;
  headers: Record<string, string>;
}

/**
 * The theme of the web client and portal (packages/web/src/styles/app.css): the same custom
 * properties and values, dark by default and light when the browser prefers it, so a person
 * going from the portal to a consent page and back sees one site. consent.test.ts holds the two
 * to the same values.
 */
export const THEME_CSS = `
:root{color-scheme:dark;--bg:#1e1f22;--bg-raised:#2b2d31;--bg-input:#383a40;--bg-hover:#35373c;--text:#f2f3f5;--text-muted:#b5bac1;--accent:#5865f2;--accent-text:#ffffff;--danger:#f23f43;--danger-text:#ffb4b5;--danger-strong:#c41e22;--success:#23a55a;--warning:#f0b232;--border:#4e5058;--focus:#00a8fc;--radius:6px}
@media (prefers-color-scheme: light){:root{color-scheme:light;--bg:#f2f3f5;--bg-raised:#ffffff;--bg-input:#e3e5e8;--bg-hover:#e8e9ec;--text:#060607;--text-muted:#4e5058;--accent:#4752c4;--danger:#c41e22;--danger-text:#a01619;--success:#1a7f45;--border:#c4c9ce;--focus:#0b5cad}}
`;

const STYLE = `${THEME_CSS}
*{box-sizing:border-box}
body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Noto Sans',sans-serif;font-size:16px;line-height:1.4;background:var(--bg);color:var(--text);display:flex;justify-content:center;padding:3rem 1rem;margin:0}
main{background:var(--bg-raised);border:1px solid var(--border);border-radius:8px;padding:2rem;max-width:28rem;width:100%}
h1{font-size:1.25rem;margin-top:0}ul{padding-left:1.25rem}li{margin:.25rem 0}a{color:var(--focus)}
:focus-visible{outline:2px solid var(--focus);outline-offset:2px}
label{display:block;margin:.75rem 0 .25rem;font-weight:600;font-size:.875rem}
input,select{width:100%;padding:.45rem .6rem;border-radius:var(--radius);border:1px solid var(--border);background:var(--bg-input);color:inherit;font:inherit}
.actions{display:flex;gap:.5rem;justify-content:flex-end;margin-top:1.5rem}
button,.button{padding:.4rem .9rem;border:1px solid var(--border);border-radius:var(--radius);background:var(--bg-input);color:inherit;font:inherit;cursor:pointer;text-decoration:none}
button:disabled{cursor:not-allowed;opacity:.6}
button.primary,.button.primary{background:var(--accent);border-color:var(--accent);color:var(--accent-text)}
.error{border:1px solid var(--danger);color:var(--danger-text);padding:.75rem;border-radius:var(--radius)}.muted{color:var(--text-muted);font-size:.875rem}
`;

/**
 * A page with its security headers: a CSP allowing only its own nonce'd style and form posts to
 * this origin (plus `formTarget`, where a form's answer redirects), never framed.
 */
export function page(input: {
  title: string;
  body: string;
  status?: number;
  /** A redirect target a form post may lead to (its origin, or `scheme:` for custom schemes). */
  formTarget?: string | null;
}): Page {
  const nonce = randomBytes(16).toString('base64');
  const formAction = ["'self'"];
  if (input.formTarget != null) formAction.push(input.formTarget);
  return {
    status: input.status ?? 200,
    html: `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer"><title>${escapeHtml(input.title)}</title>
<style nonce="${nonce}">${STYLE}</style></head>
<body><main>${input.body}</main></body></html>`,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': [
        "default-src 'none'",
        `style-src 'nonce-${nonce}'`,
        `form-action ${formAction.join(' ')}`,
        "frame-ancestors 'none'",
        "base-uri 'none'",
      ].join('; '),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    },
  };
}

/** The CSP source for where a redirect URI leads. */
export function formTargetOf(redirectUri: string | null): string | null {
  if (redirectUri === null) return null;
  try {
    const url = new URL(redirectUri);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : url.protocol;
  } catch {
    return null;
  }
}

const hidden = (name: string, value: string) =>
  `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`;

export function errorPage(message: string, status = 400): Page {
  return page({
    title: 'Authorization failed',
    status,
    body: `<h1>Something went wrong</h1><p class="error">${escapeHtml(message)}</p>`,
  });
}

export function messagePage(title: string, message: string): Page {
  return page({
    title,
    body: `<h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>`,
  });
}

/** The login form; it posts back to /oauth2/login and returns to `next`. */
export function loginPage(input: { next: string; csrf: string; error?: string }): Page {
  return page({
    title: 'Log in',
    status: input.error === undefined ? 200 : 400,
    body: `<h1>Log in to continue</h1>
${input.error === undefined ? '' : `<p class="error">${escapeHtml(input.error)}</p>`}
<form method="post" action="/oauth2/login">
${hidden('csrf_token', input.csrf)}${hidden('next', input.next)}
<label for="login">Email or username</label><input id="login" name="login" autocomplete="username" required>
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="primary" type="submit">Log in</button></div>
</form>`,
  });
}

function scopeList(scopes: readonly string[]): string {
  return `<ul>${scopes
    .map(
      (scope) =>
        `<li>${escapeHtml(scopeDescription(scope))} <span class="muted">(${escapeHtml(scope)})</span></li>`,
    )
    .join('')}</ul>`;
}

/** The consent page: the app, what it asks for, the guild picker for a bot; Authorize, Cancel. */
export function consentPage(input: {
  request: AuthorizeRequest;
  username: string;
  csrf: string;
  guilds: readonly GuildRecord[];
}): Page {
  const { request } = input;
  const appName = escapeHtml(request.application.name);
  const bot = request.scopes.includes('bot');
  const fields = Object.entries(request.params as Record<string, string>)
    .filter(([name]) => name !== 'guild_id')
    .map(([name, value]) => hidden(name, value))
    .join('');
  const guildPicker = bot
    ? input.guilds.length === 0
      ? '<p class="error">You do not manage any server this bot could be added to.</p>'
      : `<label for="guild_id">Add to server</label><select id="guild_id" name="guild_id" required>${input.guilds
          .map(
            (g) =>
              `<option value="${escapeHtml(g.id)}"${g.id === request.guildId ? ' selected' : ''}>${escapeHtml(g.name)}</option>`,
          )
          .join('')}</select>`
    : '';
  const permissions = bot
    ? `<p>The bot will get these permissions:</p>${
        request.permissions === 0n
          ? '<p class="muted">No permissions.</p>'
          : `<ul>${permissionNames(request.permissions)
              .map((name) => `<li>${escapeHtml(PERMISSION_LABELS[name])}</li>`)
              .join('')}</ul>`
      }`
    : '';
  return page({
    title: `Authorize ${request.application.name}`,
    formTarget: formTargetOf(request.redirectUri),
    body: `<h1>${appName} wants to access your account</h1>
<p class="muted">Signed in as ${escapeHtml(input.username)}</p>
<p>This will allow ${appName} to:</p>${scopeList(request.requested)}
<form method="post" action="/oauth2/authorize">${fields}${hidden('csrf_token', input.csrf)}
${guildPicker}${permissions}
<div class="actions"><button class="secondary" type="submit" name="decision" value="cancel">Cancel</button>
<button class="primary" type="submit" name="decision" value="authorize"${bot && input.guilds.length === 0 ? ' disabled' : ''}>Authorize</button></div>
</form>`,
  });
}

/**
 * Where a consent page's closing link may lead: an http(s) URL (the page that sent the person to
 * the consent page, as its Referer or the `return_to` carried with the form), never an OAuth2 page
 * itself; null otherwise. It is only ever a link the person follows, never a redirect.
 */
export function returnTarget(value: string | undefined): string | null {
  if (value === undefined || value.length > 2048) return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username !== '' || url.password !== '') return null;
    if (url.pathname.startsWith('/oauth2/') || url.pathname.startsWith('/activate')) return null;
    return url.href;
  } catch {
    return null;
  }
}

/**
 * The end of a bot install that has no redirect: added (or not), and a link on: to the server in
 * the web client when the bot joined one, and back to where the person came from (or the client's
 * home when that is unknown), on a denial too.
 */
export function outcomePage(input: {
  appName: string;
  approved: boolean;
  guild: Pick<GuildRecord, 'id' | 'name'> | null;
  returnTo: string | null;
}): Page {
  const appName = escapeHtml(input.appName);
  const links: string[] = [];
  if (input.approved && input.guild !== null) {
    links.push(
      `<a class="button primary" href="/channels/${escapeHtml(input.guild.id)}">Go to ${escapeHtml(input.guild.name)}</a>`,
    );
  }
  links.push(
    input.returnTo === null
      ? '<a class="button" href="/channels/@me">Back to Guildhall</a>'
      : `<a class="button" href="${escapeHtml(input.returnTo)}">Back to ${escapeHtml(new URL(input.returnTo).host)}</a>`,
  );
  const [title, text] = input.approved
    ? input.guild === null
      ? ['Authorized', `${appName} is authorized.`]
      : [`${input.appName} was added`, `${appName} was added to ${escapeHtml(input.guild.name)}.`]
    : ['Cancelled', `You cancelled: ${appName} was not authorized and nothing was shared.`];
  return page({
    title,
    body: `<h1>${escapeHtml(title)}</h1><p>${text}</p><div class="actions">${links.join('')}</div>`,
  });
}

/** The device flow: enter the code shown on the device. */
export function deviceCodePage(input: { error?: string }): Page {
  return page({
    title: 'Activate a device',
    status: input.error === undefined ? 200 : 400,
    body: `<h1>Activate a device</h1>
${input.error === undefined ? '' : `<p class="error">${escapeHtml(input.error)}</p>`}
<form method="get" action="/activate"><label for="user_code">Code shown on your device</label>
<input id="user_code" name="user_code" autocomplete="one-time-code" required>
<div class="actions"><button class="primary" type="submit">Continue</button></div></form>`,
  });
}

/** The device flow: approve or deny the device's request. */
export function deviceConsentPage(input: {
  appName: string;
  scopes: readonly string[];
  userCode: string;
  csrf: string;
  username: string;
}): Page {
  const appName = escapeHtml(input.appName);
  return page({
    title: `Authorize ${input.appName}`,
    body: `<h1>${appName} wants to access your account</h1>
<p class="muted">Signed in as ${escapeHtml(input.username)} · code ${escapeHtml(input.userCode)}</p>
<p>This will allow ${appName} to:</p>${scopeList(input.scopes)}
<form method="post" action="/activate">${hidden('user_code', input.userCode)}${hidden('csrf_token', input.csrf)}
<div class="actions"><button class="secondary" type="submit" name="decision" value="cancel">Cancel</button>
<button class="primary" type="submit" name="decision" value="authorize">Authorize</button></div></form>`,
  });
}

/** The query string of an authorize request, to come back to after logging in. */
export function authorizePath(params: OAuthParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (name !== 'csrf_token' && name !== 'decision') query.set(name, value);
  }
  return `/oauth2/authorize?${query.toString()}`;
}
