import { readFileSync } from 'node:fs';
import { PermissionFlags as P } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../test/support/drivers.js';
import { uniqueName } from '../../test/support/fileServer.js';
import { useOAuthFixture } from '../../test/support/oauthFixture.js';
import { seedDeveloper } from '../../test/support/testServer.js';
import { THEME_CSS } from './pages.js';

/** The custom properties of each `:root` block of a stylesheet, in order ("name: value"). */
function themeOf(css: string): string[][] {
  const blocks = [...css.matchAll(/:root\s*\{([^}]*)\}/g)].map((m) => m[1] ?? '');
  return blocks.map((block) =>
    [...block.matchAll(/(--[\w-]+)\s*:\s*([^;]+)/g)].map(
      (m) => `${m[1] ?? ''}: ${(m[2] ?? '').trim()}`,
    ),
  );
}

/** What the consent pages look like and how they end, for a person in a browser. */
describeDrivers('the OAuth2 consent pages on $driver', (driver) => {
  const fx = useOAuthFixture(driver);
  const { inject } = fx;

  /** A logged-in consent page session: its cookie, through the page's own login form. */
  async function signedIn(query: string, username: string): Promise<string> {
    const anonymous = await inject({ method: 'GET', url: `/oauth2/authorize?${query}` });
    const csrfCookie = String(anonymous.headers['set-cookie']).split(';')[0] ?? '';
    const loginCsrf = /name="csrf_token" value="([^"]+)"/.exec(anonymous.body)?.[1] ?? '';
    const login = await inject({
      method: 'POST',
      url: '/oauth2/login',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: csrfCookie },
      payload: new URLSearchParams({
        login: username,
        password: 'correct horse battery',
        csrf_token: loginCsrf,
        next: `/oauth2/authorize?${query}`,
      }).toString(),
    });
    expect(login.statusCode).toBe(303);
    return String(login.headers['set-cookie']).split(';')[0] ?? '';
  }

  it('use the web pages’ theme, light when the browser prefers it', () => {
    const web = readFileSync(new URL('../../../web/src/styles/app.css', import.meta.url), 'utf8');
    const expected = themeOf(web);
    expect(expected).toHaveLength(2);
    expect(themeOf(THEME_CSS)).toEqual(expected);
    expect(THEME_CSS).toContain('@media (prefers-color-scheme: light)');
  });

  it('name permissions as people know them, and end with a link back, on a denial too', async () => {
    // An app with no redirect URI: a bot install ends on the consent page.
    const eve = await seedDeveloper(fx.server.app, uniqueName('eve'), 'eve app');
    const { guild } = await fx.server.app.services.guilds.create({
      ownerId: eve.userId,
      name: 'Ada guild',
      channels: [{ name: 'general', type: 'text' }],
    });
    const query = new URLSearchParams({
      client_id: eve.applicationId,
      scope: 'bot',
      permissions: (P.MANAGE_GUILD | P.MODERATE_MEMBERS | P.VIEW_CHANNEL).toString(),
      integration_type: '0',
    }).toString();
    const cookie = await signedIn(query, eve.username);
    const consent = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${query}`,
      headers: { cookie, referer: 'https://ada.example/install' },
    });
    expect(consent.statusCode).toBe(200);
    for (const name of ['Manage Server', 'Timeout Members', 'View Channels']) {
      expect(consent.body).toContain(`<li>${name}</li>`);
    }
    expect(consent.body).not.toContain('MANAGE_GUILD');
    expect(consent.body).toContain('name="return_to" value="https://ada.example/install"');
    const csrf = /name="csrf_token" value="([^"]+)"/.exec(consent.body)?.[1] ?? '';
    const decide = (decision: string) =>
      inject({
        method: 'POST',
        url: '/oauth2/authorize',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        payload: new URLSearchParams({
          ...Object.fromEntries(new URLSearchParams(query)),
          return_to: 'https://ada.example/install',
          guild_id: guild.id,
          csrf_token: csrf,
          decision,
        }).toString(),
      });

    const cancelled = await decide('cancel');
    expect(cancelled.statusCode).toBe(200);
    expect(cancelled.body).toContain('was not authorized');
    expect(cancelled.body).toContain('href="https://ada.example/install">Back to ada.example</a>');

    const added = await decide('authorize');
    expect(added.statusCode).toBe(200);
    expect(added.body).toContain('eve app was added to Ada guild.');
    expect(added.body).toContain(`href="/channels/${guild.id}">Go to Ada guild</a>`);
    expect(added.body).toContain('Back to ada.example');

    // No page that sent the person (or one that is not a web page): back to the client.
    const unknown = await inject({
      method: 'GET',
      url: `/oauth2/authorize?${query}`,
      headers: { cookie, referer: 'javascript:alert(1)' },
    });
    expect(unknown.body).not.toContain('name="return_to"');
  });
});
