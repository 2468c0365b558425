import { randomBytes } from 'node:crypto';
import type { GuildRecord } from '../storage/index.js';
import type { AuthorizeRequest } from './authorize.js';
import type { OAuthParams } from './params.js';
import { SCOPES } from './scopes.js';

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

const STYLE = `
body{font-family:system-ui,sans-serif;background:#313338;color:#dbdee1;display:flex;justify-content:center;padding:3rem 1rem;margin:0}
main{background:#2b2d31;border-radius:8px;padding:2rem;max-width:28rem;width:100%}
h1{font-size:1.25rem;margin-top:0;color:#f2f3f5}ul{padding-left:1.25rem}li{margin:.25rem 0}
label{display:block;margin:.75rem 0 .25rem}input,select{width:100%;box-sizing:border-box;padding:.5rem;border-radius:4px;border:1px solid #1e1f22;background:#1e1f22;color:#dbdee1}
.actions{display:flex;gap:.5rem;justify-content:flex-end;margin-top:1.5rem}
button{padding:.6rem 1.2rem;border:0;border-radius:4px;cursor:pointer;font-weight:600}
button.primary{background:#5865f2;color:#fff}button.secondary{background:#4e5058;color:#fff}
.error{background:#3b2025;color:#f8b4b4;padding:.75rem;border-radius:4px}.muted{color:#949ba4;font-size:.875rem}
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
        `<li>${escapeHtml(SCOPES[scope] ?? scope)} <span class="muted">(${escapeHtml(scope)})</span></li>`,
    )
    .join('')}</ul>`;
}

/** The names of the permission bits set in a bitset. */
function permissionNames(bits: bigint, names: Readonly<Record<string, bigint>>): string[] {
  return Object.entries(names)
    .filter(([, bit]) => bit !== 0n && (bits & bit) === bit)
    .map(([name]) => name);
}

/** The consent page: the app, what it asks for, the guild picker for a bot; Authorize, Cancel. */
export function consentPage(input: {
  request: AuthorizeRequest;
  username: string;
  csrf: string;
  guilds: readonly GuildRecord[];
  permissionFlags: Readonly<Record<string, bigint>>;
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
          : `<ul>${permissionNames(request.permissions, input.permissionFlags)
              .map((name) => `<li>${escapeHtml(name)}</li>`)
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
