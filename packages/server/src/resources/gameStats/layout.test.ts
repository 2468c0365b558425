import { beforeEach, expect, it } from 'vitest';
import {
  fabricatedId,
  registration,
  uniqueName,
  useFileServer,
} from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { seedDeveloper, type TestServer } from '../../../test/support/testServer.js';
import { MAX_HIGHLIGHT_FIELDS, MAX_WIDGETS } from './layout.js';
import { apiRequest } from '../../../test/support/inject.js';

const LAYOUT = {
  widgets: [
    {
      type: 'highlight',
      title: 'Ranked',
      fields: [
        { key: 'rank_name', label: 'Rank', kind: 'primary' },
        { key: 'total_wins', label: 'Wins', kind: 'primary' },
      ],
    },
    {
      type: 'list',
      title: 'Details',
      fields: [
        { key: 'playtime_hours', label: 'Hours played', kind: 'primary' },
        { key: 'Favourite map', label: 'Map', kind: 'dynamic' },
        { key: 'Nemesis', label: 'Nemesis', kind: 'dynamic' },
      ],
    },
    {
      type: 'list',
      title: 'Season',
      fields: [{ key: 'season', label: 'Season', kind: 'primary' }],
    },
  ],
};

describeDrivers('game-stats widget layouts on $driver', (driver) => {
  let server: TestServer;
  let dev: Awaited<ReturnType<typeof seedDeveloper>>;

  const shared = useFileServer({ storage: driver }, 'api');
  beforeEach(async () => {
    server = shared.server;
    dev = await seedDeveloper(server.app, uniqueName('gamedev'), 'gamedev app');
  });

  const call = (
    method: 'GET' | 'PUT' | 'PATCH',
    url: string,
    request: { auth: string; payload?: object },
  ) => apiRequest(server.app, `${method} ${url}`, request);
  const layoutPath = () => `/applications/${dev.applicationId}/game-stats/layout`;

  it('keeps the layout the owner puts, and refuses anyone else', async () => {
    const empty = await call('GET', layoutPath(), { auth: dev.userToken });
    expect(empty.statusCode).toBe(200);
    expect(empty.json()).toEqual({ widgets: [] });

    const put = await call('PUT', layoutPath(), { auth: dev.userToken, payload: LAYOUT });
    expect(put.statusCode).toBe(200);
    expect(put.json()).toEqual(LAYOUT);
    expect((await call('GET', layoutPath(), { auth: dev.userToken })).json()).toEqual(LAYOUT);

    const other = await seedDeveloper(server.app, uniqueName('rival'), 'rival app');
    const foreign = await call('PUT', layoutPath(), {
      auth: other.userToken,
      payload: { widgets: [] },
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toMatchObject({ code: 10002 });
    expect((await call('GET', layoutPath(), { auth: `Bot ${dev.botToken}` })).statusCode).toBe(403);
    expect((await call('GET', layoutPath(), { auth: dev.userToken })).json()).toEqual(LAYOUT);
  });

  it('refuses layouts outside the rules, at their paths', async () => {
    const widget = (fields: object[], type = 'list') => ({ type, title: 'T', fields });
    const field = (key: string, kind = 'primary') => ({ key, label: key, kind });
    const cases: [object, string][] = [
      [{ widgets: [widget([field('not_a_stat')])] }, 'widgets.0.fields.0.key'],
      [{ widgets: [widget([])] }, 'widgets.0.fields'],
      [
        {
          widgets: [
            widget(
              ['rank_name', 'total_wins', 'total_games', 'season'].map((k) => field(k)),
              'highlight',
            ),
          ],
        },
        'widgets.0.fields',
      ],
      [
        { widgets: [widget([field('x', 'dynamic'), field('x', 'dynamic')])] },
        'widgets.0.fields.1.key',
      ],
      [{ widgets: [{ ...widget([field('season')]), type: 'pie' }] }, 'widgets.0.type'],
      [{ widgets: [{ ...widget([field('season')]), title: '' }] }, 'widgets.0.title'],
      [
        { widgets: Array.from({ length: MAX_WIDGETS + 1 }, () => widget([field('season')])) },
        'widgets',
      ],
      [{ widgets: [widget([field('season')])], extra: true }, ''],
    ];
    for (const [payload, path] of cases) {
      const res = await call('PUT', layoutPath(), { auth: dev.userToken, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const body = res.json<{ code: number; errors: Record<string, unknown> }>();
      expect(body.code).toBe(50035);
      let node: unknown = body.errors;
      for (const part of path === '' ? [] : path.split('.')) {
        node = (node as Record<string, unknown>)[part];
      }
      expect(node, `${path} in ${JSON.stringify(body.errors)}`).toHaveProperty('_errors');
    }
    expect(MAX_HIGHLIGHT_FIELDS).toBe(3);
    expect((await call('GET', layoutPath(), { auth: dev.userToken })).json()).toEqual({
      widgets: [],
    });
  });

  it("fills the layout with a player's stats", async () => {
    const session = await server.app.services.auth.register(registration('player'));
    await server.app.storage.oauth.upsertAuthorization({
      id: fabricatedId(session.user_id),
      userId: session.user_id,
      applicationId: dev.applicationId,
      scopes: ['application_identities.write'],
      integrationType: 1,
      createdAt: Date.now(),
      updatedAt: Date.now(),
    });
    const written = await call(
      'PATCH',
      `/applications/${dev.applicationId}/users/${session.user_id}/identities/p-1/profile`,
      {
        auth: `Bot ${dev.botToken}`,
        payload: {
          data: {
            primary: { rank_name: 'Diamond', total_wins: 40, playtime_hours: 12.5 },
            dynamic: [{ type: 1, name: 'Favourite map', value: 'Harbour' }],
          },
        },
      },
    );
    expect(written.statusCode).toBe(201);
    await call('PUT', layoutPath(), { auth: dev.userToken, payload: LAYOUT });

    const widgets = `/users/@me/application-identities/${dev.applicationId}/widgets`;
    const res = await call('GET', widgets, { auth: session.token });
    expect(res.statusCode).toBe(200);
    // Fields without a value, and the widget left empty (Season), are left out.
    expect(res.json()).toEqual({
      widgets: [
        {
          type: 'highlight',
          title: 'Ranked',
          fields: [
            { key: 'rank_name', label: 'Rank', kind: 'primary', value: 'Diamond' },
            { key: 'total_wins', label: 'Wins', kind: 'primary', value: 40 },
          ],
        },
        {
          type: 'list',
          title: 'Details',
          fields: [
            { key: 'playtime_hours', label: 'Hours played', kind: 'primary', value: 12.5 },
            { key: 'Favourite map', label: 'Map', kind: 'dynamic', value: 'Harbour' },
          ],
        },
      ],
    });
    // The app's bot reads them too; another person does not.
    const byBot = await call(
      'GET',
      `/users/${session.user_id}/application-identities/${dev.applicationId}/widgets`,
      { auth: `Bot ${dev.botToken}` },
    );
    expect(byBot.statusCode).toBe(200);
    const stranger = await call(
      'GET',
      `/users/${session.user_id}/application-identities/${dev.applicationId}/widgets`,
      { auth: dev.userToken },
    );
    expect(stranger.statusCode).toBe(403);
  });
});
