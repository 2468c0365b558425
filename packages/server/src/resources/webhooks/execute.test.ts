import { PermissionFlags as P } from '@guildhall/protocol';
import { beforeEach, expect, it, onTestFinished } from 'vitest';
import { CHANNEL_LIST_VISIBILITY_FROM_MS } from '../../domain/permissions.js';
import { useClockedServer } from '../../../test/support/fileServer.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { guildFixture, type GuildFixture } from '../../../test/support/guildMembers.js';
import {
  AFTER_SPLIT,
  firstChannelId,
  multipartBody,
  type WireMessage,
} from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { type TestServer } from '../../../test/support/testServer.js';
import { WEBHOOK_LIMITS } from './schemas.js';
import { apiRequest } from '../../../test/support/inject.js';

interface Hook {
  id: string;
  token: string;
  name: string;
}

type WebhookMessage = WireMessage & {
  webhook_id?: string;
  author: { id: string; username: string; bot?: boolean };
  attachments: { filename: string }[];
  components: unknown[];
};

describeDrivers('incoming webhook token routes on $driver', (driver) => {
  let server: TestServer;
  let g: GuildFixture;
  let channelId: string;
  let hook: Hook;

  const shared = useClockedServer({ storage: driver }, 'api-clock', {
    from: AFTER_SPLIT,
    until: CHANNEL_LIST_VISIBILITY_FROM_MS,
  });
  const { clock } = shared;
  beforeEach(async () => {
    server = shared.server;
    g = await guildFixture(server, { botPermissions: P.MANAGE_WEBHOOKS, nowMs: () => clock.now() });
    channelId = await firstChannelId(server.app, g.guildId);
    const res = await g.call('POST', `/channels/${channelId}/webhooks`, {
      auth: g.owner.token,
      payload: { name: 'Hook' },
    });
    hook = res.json<Hook>();
  });

  const tokenPath = (suffix = '') => `/webhooks/${hook.id}/${hook.token}${suffix}`;
  const SPEC = '/webhooks/{webhook_id}/{webhook_token}';
  /** An unauthenticated request, checked against openapi.json under `spec`. */
  const send = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    path: string,
    options: { spec: string; payload?: unknown; headers?: Record<string, string> },
  ) => {
    const { spec, payload, headers = {} } = options;
    // Each request in a new window of the per-webhook execute bucket.
    clock.advance(WEBHOOK_LIMITS.executeBucket.windowMs);
    const res = await apiRequest(server.app, `${method} ${path}`, { payload, headers });
    expectOpenApiResponse(res, method, spec);
    return res;
  };
  const channelMessages = async (auth: string) =>
    (await g.call('GET', `/channels/${channelId}/messages`, auth)).json<WebhookMessage[]>();

  it('reads, renames and deletes a webhook by its token', async () => {
    const got = await send('GET', tokenPath(), { spec: SPEC });
    expect(got.statusCode).toBe(200);
    expect(got.json()).toMatchObject({ id: hook.id, token: hook.token, name: 'Hook' });
    expect(got.json()).not.toHaveProperty('user');

    // channel_id is not taken by token: it stays where it was.
    const patched = await send('PATCH', tokenPath(), {
      spec: SPEC,
      payload: { name: 'Renamed', channel_id: '1' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json()).toMatchObject({ name: 'Renamed', channel_id: channelId });

    const wrong = await send('GET', `/webhooks/${hook.id}/not-the-token`, { spec: SPEC });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json()).toMatchObject({ code: 50027 });
    const unknown = await send('GET', `/webhooks/123456789012345678/${hook.token}`, { spec: SPEC });
    expect(unknown.json()).toMatchObject({ code: 10015 });
    const hostile = await send('GET', `/webhooks/%27%3B--/${hook.token}`, { spec: SPEC });
    expect(hostile.json()).toMatchObject({ code: 10015 });

    const deleted = await send('DELETE', tokenPath(), { spec: SPEC });
    expect(deleted.statusCode).toBe(204);
    expect(await server.app.storage.webhooks.findById(hook.id)).toBeNull();
    expect((await send('GET', tokenPath(), { spec: SPEC })).json()).toMatchObject({ code: 10015 });
  });

  it('executes: 204 without wait, the message with it; then gets, edits and deletes it', async () => {
    const recorded = await recordDispatches(server.app);
    onTestFinished(recorded.stop);
    const quiet = await send('POST', tokenPath(), {
      spec: SPEC,
      payload: { content: 'build passed' },
    });
    expect(quiet.statusCode, quiet.body).toBe(204);
    expect(quiet.body).toBe('');

    const res = await send('POST', tokenPath('?wait=true'), {
      spec: SPEC,
      payload: {
        content: 'hello <@' + g.owner.userId + '> @everyone',
        username: 'Deploy bot',
        embeds: [{ title: 'Release', description: 'v1.2.3', color: 0x00ff00 }],
        tts: true,
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const message = res.json<WebhookMessage>();
    expect(message).toMatchObject({
      webhook_id: hook.id,
      author: { id: hook.id, username: 'Deploy bot', bot: true },
      channel_id: channelId,
      tts: true,
      mention_everyone: true,
      mentions: [{ id: g.owner.userId }],
    });
    const created = await recorded.next('MESSAGE_CREATE');
    expect(created.guildId).toBe(g.guildId);

    // Members read it as any message.
    const listed = await channelMessages(g.owner.token);
    expect(listed.map((m) => m.content)).toEqual([message.content, 'build passed']);

    const msgSpec = `${SPEC}/messages/{message_id}`;
    const got = await send('GET', tokenPath(`/messages/${message.id}`), { spec: msgSpec });
    expect(got.json()).toMatchObject({ id: message.id, webhook_id: hook.id });
    const edited = await send('PATCH', tokenPath(`/messages/${message.id}`), {
      spec: msgSpec,
      payload: {
        content: 'edited',
        embeds: [],
      },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({ content: 'edited', embeds: [] });
    expect(edited.json<WebhookMessage>().edited_timestamp).not.toBeNull();
    await recorded.next('MESSAGE_UPDATE');

    // @original is an interaction's: an incoming webhook has none.
    const original = await send('GET', tokenPath('/messages/@original'), {
      spec: `${SPEC}/messages/@original`,
    });
    expect(original.json()).toMatchObject({ code: 10008 });
    // A member's message is not the webhook's.
    const mine = await g.call('POST', `/channels/${channelId}/messages`, {
      auth: g.owner.token,
      payload: { content: 'mine' },
    });
    const notOurs = await send('PATCH', tokenPath(`/messages/${mine.json<WireMessage>().id}`), {
      spec: msgSpec,
      payload: { content: 'hijack' },
    });
    expect(notOurs.json()).toMatchObject({ code: 10008 });

    const deleted = await send('DELETE', tokenPath(`/messages/${message.id}`), { spec: msgSpec });
    expect(deleted.statusCode).toBe(204);
    await recorded.next('MESSAGE_DELETE');
    const gone = await send('GET', tokenPath(`/messages/${message.id}`), { spec: msgSpec });
    expect(gone.json()).toMatchObject({ code: 10008 });
  });

  it('takes files by multipart and refuses bad executes without posting', async () => {
    const { body, contentType } = await multipartBody(
      { content: 'log attached', attachments: [{ id: 0, description: 'the log' }] },
      [{ field: 'files[0]', filename: 'build.log', contentType: 'text/plain', data: 'ok\n' }],
    );
    const res = await server.app.http.inject({
      method: 'POST',
      url: `/api/v10${tokenPath('?wait=true')}`,
      headers: { 'content-type': contentType },
      payload: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json<WebhookMessage>().attachments).toMatchObject([
      { filename: 'build.log', description: 'the log' },
    ]);

    const bad: [unknown, number][] = [
      [{}, 50006],
      [{ content: 'x'.repeat(2001) }, 50035],
      [{ content: 42 }, 50035],
      [{ content: 'hi', username: 'clyde fan' }, 50035],
      [{ content: 'hi', username: 'x'.repeat(81) }, 50035],
      [{ content: 'hi', flags: 64 }, 50035],
      [{ content: 'hi', embeds: Array.from({ length: 11 }, () => ({ title: 't' })) }, 50035],
      [{ content: 'hi', poll: { question: { text: 'q' }, answers: [] } }, 50035],
      [{ content: 'hi', allowed_mentions: { parse: ['users'], users: ['1'] } }, 50035],
    ];
    for (const [payload, code] of bad) {
      const refused = await send('POST', tokenPath('?wait=true'), { spec: SPEC, payload: payload });
      expect(refused.json(), JSON.stringify(payload)).toMatchObject({ code });
    }
    const thread = await send('POST', tokenPath('?thread_id=123456789012345678'), {
      spec: SPEC,
      payload: {
        content: 'in a thread',
      },
    });
    expect(thread.json()).toMatchObject({ code: 10003 });
    const wrongToken = await send('POST', `/webhooks/${hook.id}/nope`, {
      spec: SPEC,
      payload: { content: 'x' },
    });
    expect(wrongToken.json()).toMatchObject({ code: 50027 });
    expect((await channelMessages(g.owner.token)).map((m) => m.content)).toEqual(['log attached']);
  });

  it('refuses a body over the limit (413); a deleted channel takes its webhooks', async () => {
    const huge = await send('POST', tokenPath('?wait=true'), {
      spec: SPEC,
      payload: { content: 'x', embeds: [{ description: 'y'.repeat(2 * 1024 * 1024) }] },
    });
    expect(huge.statusCode).toBe(413);
    const removed = await g.call('DELETE', `/channels/${channelId}`, g.owner.token);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(await server.app.storage.webhooks.findById(hook.id)).toBeNull();
    const gone = await send('POST', tokenPath(), { spec: SPEC, payload: { content: 'x' } });
    expect(gone.json()).toMatchObject({ code: 10015 });
  });

  it('keeps a plain webhook components only with with_components, and only non-interactive', async () => {
    const link = {
      type: 1,
      components: [{ type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' }],
    };
    const dropped = await send('POST', tokenPath('?wait=true'), {
      spec: SPEC,
      payload: {
        content: 'no components',
        components: [link],
      },
    });
    expect(dropped.json<WebhookMessage>().components).toEqual([]);
    const kept = await send('POST', tokenPath('?wait=true&with_components=true'), {
      spec: SPEC,
      payload: {
        content: 'a link',
        components: [link],
      },
    });
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json<WebhookMessage>().components).toHaveLength(1);
    const interactive = await send('POST', tokenPath('?wait=true&with_components=true'), {
      spec: SPEC,
      payload: {
        content: 'a button',
        components: [
          { type: 1, components: [{ type: 2, style: 1, label: 'Click', custom_id: 'c' }] },
        ],
      },
    });
    expect(interactive.json()).toMatchObject({ code: 50035 });
  });

  it('maps Slack and GitHub payloads to embeds', async () => {
    const slack = await send('POST', tokenPath('/slack'), {
      spec: `${SPEC}/slack`,
      payload: {
        text: 'Deploy <https://ci.example/1|#1> done &amp; dusted',
        username: 'CI',
        attachments: [
          {
            title: 'Build',
            title_link: 'https://ci.example/1',
            text: 'all green',
            color: '#36a64f',
            fields: [{ title: 'Time', value: '3m', short: true }],
            footer: 'ci',
            ts: 1_700_000_000,
          },
        ],
      },
    });
    expect(slack.statusCode, slack.body).toBe(200);
    expect(slack.json()).toBe('ok');
    const github = await send('POST', tokenPath('/github'), {
      spec: `${SPEC}/github`,
      payload: {
        ref: 'refs/heads/main',
        compare: 'https://github.com/o/r/compare/a...b',
        repository: { id: 1, name: 'r', full_name: 'o/r', html_url: 'https://github.com/o/r' },
        sender: {
          id: 2,
          login: 'octo',
          html_url: 'https://github.com/octo',
          avatar_url: 'https://avatars.example/octo.png',
        },
        commits: [
          {
            id: 'abcdef1234567',
            url: 'https://github.com/o/r/commit/abcdef1',
            message: 'Fix the build\n\nlong body',
            author: { name: 'Octo Cat', username: 'octo' },
          },
        ],
      },
      headers: { 'x-github-event': 'push' },
    });
    expect(github.statusCode, github.body).toBe(204);
    const ping = await send('POST', tokenPath('/github'), {
      spec: `${SPEC}/github`,
      payload: { zen: 'hi' },
      headers: {
        'x-github-event': 'ping',
      },
    });
    expect(ping.statusCode).toBe(204);

    const [fromGithub, fromSlack] = await channelMessages(g.owner.token);
    expect(fromSlack).toMatchObject({
      content: 'Deploy [#1](https://ci.example/1) done & dusted',
      author: { username: 'CI' },
      embeds: [
        {
          title: 'Build',
          url: 'https://ci.example/1',
          description: 'all green',
          color: 0x36a64f,
          fields: [{ name: 'Time', value: '3m', inline: true }],
          footer: { text: 'ci' },
          timestamp: new Date(1_700_000_000_000).toISOString(),
        },
      ],
    });
    expect(fromGithub).toMatchObject({
      author: { username: 'GitHub' },
      embeds: [
        {
          title: '[o/r:main] 1 new commit',
          url: 'https://github.com/o/r/compare/a...b',
          description: '[`abcdef1`](https://github.com/o/r/commit/abcdef1) Fix the build - octo',
          author: { name: 'octo', url: 'https://github.com/octo' },
        },
      ],
    });
  });

  it('rate-limits executes per webhook, whoever sends them', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const res = await server.app.http.inject({
        method: 'POST',
        url: `/api/v10${tokenPath()}`,
        payload: { content: `n${String(i)}` },
        remoteAddress: `10.0.0.${String(i + 1)}`,
      });
      codes.push(res.statusCode);
      if (res.statusCode === 429) {
        expect(res.headers['x-ratelimit-scope']).toBe('shared');
      }
    }
    expect(codes).toEqual([204, 204, 204, 204, 204, 429]);
  });
});
