import { ApplicationFlags, PermissionFlags as P } from '@guildhall/protocol';
import { uniqueName } from '../../../test/support/fileServer.js';
import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';
import { useSearchFixture, type Query } from '../../../test/support/searchFixture.js';

describeDrivers('message search on $driver', (driver) => {
  const fx = useSearchFixture(driver);
  const { searchUrl, post, attachment, addChannel, search, ids, refused } = fx;

  it('finds messages by their words, each hit alone in its array', async () => {
    const hello = await post({ content: 'Hello brave new world' });
    await post({ content: 'goodbye world' });
    const both = await post({ content: 'WORLD, hello again!' });

    const body = await search({ content: 'hello world' });
    expect(body).toMatchObject({ doing_deep_historical_index: false, total_results: 2 });
    expect(body.threads).toEqual([]);
    expect(body.members).toEqual([]);
    // Newest first by default.
    expect(body.messages.map((group) => group.map((m) => m.id))).toEqual([[both], [hello]]);
    for (const [message] of body.messages) {
      expect(message).toMatchObject({ hit: true, channel_id: fx.general });
      expect(message).not.toHaveProperty('reactions');
    }
    expect(await ids({ content: 'world' })).toHaveLength(3);
    expect(await ids({ content: 'nowhere' })).toEqual([]);
    // No content filter: every message.
    expect(await ids()).toEqual([both, expect.any(String), hello]);
    expect(await ids({ content: '   ' })).toHaveLength(3);

    // Case folds on both drivers; accents fold on SQLite only (docs/search.md).
    const accented = await post({ content: 'Rendez-vous à l’École' });
    expect(await ids({ content: 'ÉCOLE rendez' })).toEqual([accented]);
    expect(await ids({ content: 'ecole' })).toEqual(driver === 'sqlite' ? [accented] : []);
  });

  it('sorts by time either way, by relevance, and pages with offset', async () => {
    const posted: string[] = [];
    for (let i = 0; i < 7; i += 1) posted.push(await post({ content: `page item ${i}` }));
    expect(await ids({ sort_order: 'asc' })).toEqual(posted);
    expect(await ids({ limit: 3 })).toEqual(posted.slice(-3).reverse());
    const page = await search({ limit: 3, offset: 3 });
    expect(page.total_results).toBe(7);
    expect(page.messages.map(([m]) => m?.id)).toEqual(posted.slice(1, 4).reverse());
    expect(await ids({ offset: 9975 })).toEqual([]);

    const weak = await post({ content: 'apple and many other words here to dilute the match' });
    const strong = await post({ content: 'apple apple apple' });
    expect(await ids({ content: 'apple', sort_by: 'relevance' })).toEqual([strong, weak]);
    expect(await ids({ content: 'apple', sort_by: 'relevance', sort_order: 'asc' })).toEqual([
      weak,
      strong,
    ]);
    // Relevance without content falls back to time.
    expect((await ids({ sort_by: 'relevance' }))[0]).toBe(strong);
  });

  it('filters by author, author type, ids and pins', async () => {
    const person = await post({ content: 'from a person' });
    const bot = await post({ authorId: fx.g.bot.userId, content: 'from a bot' });
    const hook = await post({ authorId: '999', webhookId: '999', content: 'from a hook' });
    await fx.server.app.storage.messages.setPinnedAt(fx.general, bot, Date.now());

    expect(await ids({ author_id: fx.g.bot.userId })).toEqual([bot]);
    expect(await ids({ author_id: [fx.g.bot.userId, fx.g.owner.userId] })).toEqual([bot, person]);
    expect(await ids({ author_type: 'bot' })).toEqual([bot]);
    expect(await ids({ author_type: 'webhook' })).toEqual([hook]);
    expect(await ids({ author_type: 'user' })).toEqual([person]);
    expect(await ids({ author_type: ['user', 'webhook'] })).toEqual([hook, person]);
    expect(await ids({ author_type: '-bot' })).toEqual([hook, person]);
    expect(await ids({ author_type: ['-bot', '-webhook'] })).toEqual([person]);
    expect(await ids({ pinned: true })).toEqual([bot]);
    expect(await ids({ pinned: 'False' })).toEqual([hook, person]);
    expect(await ids({ min_id: person })).toEqual([hook, bot]);
    expect(await ids({ max_id: hook })).toEqual([bot, person]);
    expect(await ids({ min_id: person, max_id: hook })).toEqual([bot]);
  });

  it('filters by mentions and replies', async () => {
    const role = fx.g.guildId;
    const mentioning = await post({ content: 'hi', mentionUserIds: [fx.g.bot.userId] });
    const roleMention = await post({ content: 'team', mentionRoleIds: [role] });
    const everyone = await post({ content: 'all', mentionEveryone: true });
    const botMessage = await post({ authorId: fx.g.bot.userId, content: 'question' });
    const reply = await post({
      type: 19,
      content: 'answer',
      reference: { type: 0, channelId: fx.general, messageId: botMessage, guildId: fx.g.guildId },
    });

    expect(await ids({ mentions: fx.g.bot.userId })).toEqual([mentioning]);
    expect(await ids({ mentions: [fx.g.owner.userId, fx.g.bot.userId] })).toEqual([mentioning]);
    expect(await ids({ mentions: fx.g.owner.userId })).toEqual([]);
    expect(await ids({ mentions_role_id: role })).toEqual([roleMention]);
    expect(await ids({ mention_everyone: true })).toEqual([everyone]);
    expect(await ids({ mention_everyone: 0 })).not.toContain(everyone);
    expect(await ids({ replied_to_message_id: botMessage })).toEqual([reply]);
    expect(await ids({ replied_to_user_id: fx.g.bot.userId })).toEqual([reply]);
    expect(await ids({ replied_to_user_id: fx.g.owner.userId })).toEqual([]);
  });

  it('filters by what messages have', async () => {
    const image = await post({ attachments: [attachment('cat.PNG', 'image/png')] });
    const video = await post({ attachments: [attachment('clip.mp4', 'video/mp4')] });
    const sound = await post({ attachments: [attachment('song.ogg', 'audio/ogg')] });
    const file = await post({ attachments: [attachment('notes.txt', 'text/plain')] });
    const link = await post({ content: 'see https://Example.com/page and http://docs.test' });
    const embed = await post({
      embeds: [{ type: 'gifv', url: 'https://tenor.test/x', provider: { name: 'Tenor' } }],
    });
    const article = await post({ embeds: [{ type: 'article', title: 'News' }] });
    // A forward's snapshot (its FORWARD reference, type 1, is left out: openapi.json's
    // MessageReferenceType lists only DEFAULT).
    const forward = await post({
      snapshots: [
        {
          message: {
            type: 0,
            content: 'forwarded',
            mentions: [],
            mention_roles: [],
            attachments: [],
            embeds: [],
            timestamp: new Date().toISOString(),
            edited_timestamp: null,
            flags: 0,
            components: [],
          },
        },
      ],
    });
    const plain = await post({ content: 'nothing special' });

    expect(await ids({ has: 'image' })).toEqual([embed, image]);
    expect(await ids({ has: 'video' })).toEqual([embed, video]);
    expect(await ids({ has: 'sound' })).toEqual([sound]);
    expect(await ids({ has: 'file' })).toEqual([file, sound, video, image]);
    expect(await ids({ has: 'link' })).toEqual([link]);
    expect(await ids({ has: 'embed' })).toEqual([article, embed]);
    expect(await ids({ has: 'snapshot' })).toEqual([forward]);
    expect(await ids({ has: 'sticker' })).toEqual([]);
    expect(await ids({ has: 'poll' })).toEqual([]);
    // Included kinds must all hold; excluded kinds must all be absent.
    expect(await ids({ has: ['file', 'image'] })).toEqual([image]);
    expect(await ids({ has: ['-file', '-embed', '-link', '-snapshot'] })).toEqual([plain]);
    expect(await ids({ has: '-poll' })).toHaveLength(9);

    expect(await ids({ embed_type: 'gif' })).toEqual([embed]);
    expect(await ids({ embed_type: ['article', 'image'] })).toEqual([article]);
    expect(await ids({ embed_provider: 'Tenor' })).toEqual([embed]);
    expect(await ids({ embed_provider: 'tenor' })).toEqual([]);
    expect(await ids({ link_hostname: 'example.com' })).toEqual([link]);
    expect(await ids({ link_hostname: ['nowhere.test', 'docs.test'] })).toEqual([link]);
    expect(await ids({ link_hostname: 'example.co' })).toEqual([]);
    expect(await ids({ attachment_filename: 'CAT.png' })).toEqual([image]);
    expect(await ids({ attachment_extension: ['png', '.txt'] })).toEqual([file, image]);
    expect(await ids({ attachment_extension: 'pn' })).toEqual([]);
  });

  it('returns only messages in channels the caller may read', async () => {
    const secret = await addChannel('secret');
    const adult = await addChannel('adult', true);
    const open = await post({ content: 'visible words' });
    const hidden = await post({ channelId: secret, content: 'hidden words' });
    const nsfw = await post({ channelId: adult, content: 'adult words' });
    await fx.server.app.storage.overwrites.put({
      channelId: secret,
      targetId: fx.g.bot.userId,
      type: 1,
      allow: 0n,
      deny: P.VIEW_CHANNEL,
    });

    expect(await ids({ content: 'words' })).toEqual([open]);
    expect(await ids({ content: 'words', include_nsfw: true })).toEqual([nsfw, open]);
    // The owner reads the secret channel; named channels narrow the search.
    expect(await ids({ content: 'words' }, fx.g.owner.token)).toEqual([hidden, open]);
    expect(await ids({ channel_id: secret }, fx.g.owner.token)).toEqual([hidden]);
    expect(await ids({ channel_id: [fx.general, adult], include_nsfw: 'true' })).toEqual([
      nsfw,
      open,
    ]);
    expect(await ids({ channel_id: adult })).toEqual([]);
    // Named channels the bot cannot read are dropped, and naming only those is refused.
    expect(await ids({ channel_id: [fx.general, secret] })).toEqual([open]);
    const res = await refused({ channel_id: secret }, 50001);
    expect(res.statusCode).toBe(403);
    await refused({ channel_id: '123' }, 50001);

    // Without READ_MESSAGE_HISTORY anywhere: 50013.
    await fx.server.app.storage.overwrites.put({
      channelId: fx.general,
      targetId: fx.g.bot.userId,
      type: 1,
      allow: 0n,
      deny: P.READ_MESSAGE_HISTORY,
    });
    await fx.server.app.storage.overwrites.put({
      channelId: adult,
      targetId: fx.g.bot.userId,
      type: 1,
      allow: 0n,
      deny: P.READ_MESSAGE_HISTORY,
    });
    expect((await refused({}, 50013)).statusCode).toBe(403);
  });

  it('needs membership and, for apps, the MESSAGE_CONTENT intent', async () => {
    await post({ content: 'secret plans' });
    const strangerName = uniqueName('stranger');
    const stranger = await fx.server.app.services.auth.register({
      email: `${strangerName}@example.test`,
      username: strangerName,
      password: 'correct horse battery',
    });
    expect((await refused({}, 50001, stranger.token)).statusCode).toBe(403);
    const unknown = await fx.g.call('GET', '/guilds/1/messages/search', fx.g.bot.token);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 10004 });
    const anonymous = await fx.g.call('GET', searchUrl(), '');
    expect(anonymous.statusCode).toBe(401);

    // The limited flag is enough; without either flag an app is refused.
    await fx.server.app.storage.applications.update(fx.g.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
    });
    expect(await ids({ content: 'plans' })).toHaveLength(1);
    await fx.server.app.storage.applications.update(fx.g.bot.applicationId, { flags: 0n });
    expect((await refused({ content: 'plans' }, 50001)).statusCode).toBe(403);
    // People are never subject to the intent.
    expect(await ids({ content: 'plans' }, fx.g.owner.token)).toHaveLength(1);
  });

  it('treats hostile text as plain words, never as search syntax', async () => {
    const quoted = await post({ content: 'say "NEAR" or not' });
    const starred = await post({ content: 'star* power - minus 100% of_it' });
    const hostile = [
      '"',
      '""',
      '"unterminated',
      '*',
      'star*',
      'NEAR(say not)',
      'NEAR',
      '-minus',
      'say OR nothing',
      'say AND not',
      'NOT say',
      'content:say',
      '^say',
      "'; DROP TABLE messages; --",
      '100%',
      'of_it',
      '\\',
      '(((',
      ':',
      '{say}',
      '🙂 emoji',
      'x'.repeat(1024),
      'a '.repeat(512),
    ];
    for (const content of hostile) {
      const res = await fx.g.call('GET', searchUrl({ content }), fx.g.bot.token);
      expect(res.statusCode, content).toBe(200);
      expectOpenApiResponse(res, 'GET', searchUrl({ content }));
    }
    expect(await ids({ content: 'NEAR' })).toEqual([quoted]);
    expect(await ids({ content: '"near"' })).toEqual([quoted]);
    expect(await ids({ content: 'NEAR(say not)' })).toEqual([quoted]);
    expect(await ids({ content: 'say OR nothing' })).toEqual([]);
    expect(await ids({ content: 'star*' })).toEqual([starred]);
    expect(await ids({ content: '-minus' })).toEqual([starred]);
    expect(await ids({ content: '100%' })).toEqual([starred]);
    // Only punctuation: no word to match, so no message.
    expect(await ids({ content: '"*-()' })).toEqual([]);
    // NUL is refused at the edge, like everywhere.
    await refused({ content: 'a\0b' }, 50035);
    expect(await ids()).toHaveLength(2);
  });

  it('refuses bad filters with 50035', async () => {
    const tooMany = Array.from({ length: 501 }, (_, i) => String(1000 + i));
    const bad: Query[] = [
      { limit: 0 },
      { limit: 26 },
      { offset: 9976 },
      { offset: -1 },
      { limit: 'many' },
      { content: 'x'.repeat(1025) },
      { slop: 101 },
      { author_id: 'me' },
      { author_id: ['1', 'x'] },
      { author_type: 'robot' },
      { has: 'gif' },
      { has: '--link' },
      { embed_type: 'gifv' },
      { sort_by: 'random' },
      { sort_order: 'up' },
      { pinned: 'yes' },
      { min_id: '-5' },
      { max_id: '1e9' },
      { channel_id: tooMany },
      { link_hostname: 'x'.repeat(257) },
      { attachment_filename: 'bad\u0007name' },
    ];
    for (const query of bad) {
      const res = await refused(query, 50035);
      expect(res.statusCode).toBe(400);
    }
    // Repeated values count once; the documented maxima are accepted.
    expect(
      await ids({ author_id: [fx.g.owner.userId, fx.g.owner.userId], limit: 25, slop: 100 }),
    ).toEqual([]);
  });

  it('caps the values of the scanned filters, naming the field past it', async () => {
    const values = (prefix: string, n: number) =>
      Array.from({ length: n }, (_, i) => `${prefix}${i}`);
    const fieldOf = async (query: Query) => {
      const res = await refused(query, 50035);
      expect(res.statusCode).toBe(400);
      return res.json<{ errors: Record<string, { _errors: { code: string }[] }> }>().errors;
    };
    // Link hostnames: ten at most (each is nine patterns over every message's text).
    expect(await ids({ link_hostname: values('h', 10).map((h) => `${h}.example`) })).toEqual([]);
    const hosts = await fieldOf({ link_hostname: values('h', 11).map((h) => `${h}.example`) });
    expect(Object.keys(hosts)).toEqual(['link_hostname']);
    expect(hosts['link_hostname']?._errors[0]?.code).toBe('BASE_TYPE_MAX_LENGTH');
    // The scanned filters share a budget of 100 values; the one that goes past it is named.
    expect(
      await ids({
        link_hostname: values('h', 10),
        attachment_filename: values('f', 45),
        attachment_extension: values('e', 45),
      }),
    ).toEqual([]);
    const shared = await fieldOf({
      link_hostname: values('h', 10),
      attachment_filename: values('f', 45),
      attachment_extension: values('e', 46),
    });
    expect(Object.keys(shared)).toEqual(['attachment_extension']);
    const byName = await fieldOf({
      attachment_filename: values('f', 60),
      attachment_extension: values('e', 41),
    });
    expect(Object.keys(byName)).toEqual(['attachment_extension']);
    // Repeated values count once toward the budget.
    expect(await ids({ link_hostname: Array.from({ length: 30 }, () => 'same.example') })).toEqual(
      [],
    );
  });
});
