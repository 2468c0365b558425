import { expect, it, onTestFinished } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { sendMultipart, useMessageFixture } from '../../../test/support/messageFixtures.js';
import { recordDispatches } from '../../../test/support/dispatchRecorder.js';
import { expectOpenApiResponse } from '../../../test/support/openapi.js';

const V2 = 1 << 15;

const buttons = {
  type: 1,
  components: [
    { type: 2, style: 1, label: 'Yes', custom_id: 'yes' },
    { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' },
  ],
};
const select = {
  type: 1,
  components: [{ type: 3, custom_id: 'pick', options: [{ label: 'A', value: 'a' }] }],
};

interface ComponentsMessage {
  id: string;
  flags: number;
  content: string;
  mentions: { id: string }[];
  components: Record<string, unknown>[];
}

/** Components on POST/PATCH /channels/{id}/messages[/{id}]: v1, v2, who may send them, edits. */
describeDrivers('message components on $driver', (driver) => {
  const fx = useMessageFixture(driver);
  const { url, post, send, expectError } = fx;

  it('a bot sends buttons and a select: stored, numbered, read back and dispatched', async () => {
    const dispatches = await recordDispatches(fx.server.app);
    onTestFinished(dispatches.stop);
    const message = (await send(fx.g.bot.token, {
      content: 'Vote',
      components: [buttons, select],
    })) as unknown as ComponentsMessage;
    expect(message.components).toEqual([
      {
        type: 1,
        id: 1,
        components: [
          { type: 2, id: 2, style: 1, label: 'Yes', custom_id: 'yes' },
          { type: 2, id: 3, style: 5, label: 'Docs', url: 'https://example.com/docs' },
        ],
      },
      {
        type: 1,
        id: 4,
        components: [
          {
            type: 3,
            id: 5,
            custom_id: 'pick',
            min_values: 1,
            max_values: 1,
            options: [{ label: 'A', value: 'a' }],
          },
        ],
      },
    ]);
    const read = await fx.g.call('GET', url(`/${message.id}`), fx.g.bot.token);
    expectOpenApiResponse(read, 'GET', url(`/${message.id}`));
    expect(read.json()).toMatchObject({ components: message.components });
    const created = await dispatches.next('MESSAGE_CREATE');
    expect(created.data).toMatchObject({ id: message.id, components: message.components });
  });

  it('people may not send components or IS_COMPONENTS_V2; nothing is written', async () => {
    const withComponents = await post(fx.g.owner.token, { content: 'x', components: [buttons] });
    expectError(withComponents, 50035, ['POST', url()]);
    expect(withComponents.json()).toMatchObject({
      errors: { components: { _errors: [{ code: 'COMPONENT_SENDER_NOT_ALLOWED' }] } },
    });
    const withFlag = await post(fx.g.owner.token, { content: 'x', flags: V2 });
    expectError(withFlag, 50035, ['POST', url()]);
    expect(withFlag.json()).toMatchObject({ errors: { flags: {} } });
    // An empty list is no components at all.
    await send(fx.g.owner.token, { content: 'plain', components: [] });
    const list = await fx.g.call('GET', url(), fx.g.owner.token);
    expect(list.json<unknown[]>()).toHaveLength(1);
  });

  it('refuses bad components with the path of the field; nothing is written', async () => {
    const tooWide = await post(fx.g.bot.token, {
      content: 'x',
      components: [{ type: 1, components: [buttons.components[0], select.components[0]] }],
    });
    expectError(tooWide, 50035, ['POST', url()]);
    expect(tooWide.json()).toMatchObject({
      errors: {
        components: {
          0: { components: { 1: { _errors: [{ code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED' }] } } },
        },
      },
    });
    const notAList = await post(fx.g.bot.token, { content: 'x', components: 'buttons' });
    expectError(notAList, 50035, ['POST', url()]);
    const v2Only = await post(fx.g.bot.token, {
      content: 'x',
      components: [{ type: 10, content: 'needs the flag' }],
    });
    expectError(v2Only, 50035, ['POST', url()]);
    expect(v2Only.json()).toMatchObject({
      errors: { components: { 0: { type: { _errors: [{ code: 'UNION_TYPE_CHOICES' }] } } } },
    });
    const list = await fx.g.call('GET', url(), fx.g.bot.token);
    expect(list.json<unknown[]>()).toEqual([]);
  });

  it('IS_COMPONENTS_V2: components only, mentions from Text Displays, files by attachment://', async () => {
    const payload = {
      flags: V2,
      allowed_mentions: { parse: ['users'] },
      components: [
        {
          type: 17,
          accent_color: 0xff0000,
          components: [
            { type: 10, content: `Hello <@${fx.g.owner.userId}>` },
            {
              type: 9,
              components: [{ type: 10, content: 'Release notes' }],
              accessory: { type: 11, media: { url: 'attachment://cover.png' } },
            },
            { type: 12, items: [{ media: { url: 'https://example.com/shot.png' } }] },
            { type: 14 },
            { type: 13, file: { url: 'attachment://notes.txt' } },
          ],
        },
      ],
    };
    const res = await sendMultipart(fx.server.app, {
      method: 'POST',
      path: url(),
      auth: fx.g.bot.token,
      payload,
      files: [
        { field: 'files[0]', filename: 'cover.png', contentType: 'image/png', data: 'png' },
        { field: 'files[1]', filename: 'notes.txt', contentType: 'text/plain', data: 'notes!' },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expectOpenApiResponse(res, 'POST', url());
    const message = res.json<ComponentsMessage & { attachments: { id: string }[] }>();
    expect(message.flags).toBe(V2);
    expect(message.content).toBe('');
    expect(message.mentions.map((user) => user.id)).toEqual([fx.g.owner.userId]);
    const [container] = message.components;
    const children = container?.['components'] as Record<string, unknown>[];
    const [notes] = message.attachments.filter((_, index) => index === 1);
    expect(children[4]).toMatchObject({
      type: 13,
      name: 'notes.txt',
      size: 6,
      spoiler: false,
      file: {
        attachment_id: notes?.id,
        content_type: 'text/plain',
        url: expect.stringContaining(
          `/attachments/${fx.channelId}/${notes?.id ?? ''}/notes.txt`,
        ) as string,
      },
    });
    const fileUrl = new URL((children[4]?.['file'] as { url: string }).url);
    const download = await fx.server.app.http.inject({
      method: 'GET',
      url: `${fileUrl.pathname}${fileUrl.search}`,
    });
    expect(download.body).toBe('notes!');
    expect(children[3]).toMatchObject({ type: 14, spacing: 1, divider: true });

    const missing = await post(fx.g.bot.token, {
      flags: V2,
      components: [{ type: 13, file: { url: 'attachment://nowhere.zip' } }],
    });
    expectError(missing, 50035, ['POST', url()]);
    const withContent = await post(fx.g.bot.token, {
      flags: V2,
      content: 'no',
      components: [{ type: 10, content: 'yes' }],
    });
    expectError(withContent, 50035, ['POST', url()]);
    expect(withContent.json()).toMatchObject({
      errors: {
        content: { _errors: [{ code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2' }] },
      },
    });
    const empty = await post(fx.g.bot.token, { flags: V2, components: [] });
    expectError(empty, 50006, ['POST', url()]);
    const tooMany = await post(fx.g.bot.token, {
      flags: V2,
      components: Array.from({ length: 41 }, (_, i) => ({ type: 10, content: String(i) })),
    });
    expectError(tooMany, 50035, ['POST', url()]);
  });

  it('a forwarded v2 message keeps its components, their file links signed afresh', async () => {
    const res = await sendMultipart(fx.server.app, {
      method: 'POST',
      path: url(),
      auth: fx.g.bot.token,
      payload: { flags: V2, components: [{ type: 13, file: { url: 'attachment://notes.txt' } }] },
      files: [{ field: 'files[0]', filename: 'notes.txt', contentType: 'text/plain', data: 'hi' }],
    });
    expect(res.statusCode, res.body).toBe(200);
    const original = res.json<ComponentsMessage>();
    const forward = await post(fx.g.owner.token, {
      message_reference: { type: 1, message_id: original.id, channel_id: fx.channelId },
    });
    expect(forward.statusCode, forward.body).toBe(200);
    const fileUrl = (message: unknown) => {
      const snapshot = (message as { message_snapshots: { message: ComponentsMessage }[] })
        .message_snapshots[0];
      const file = snapshot?.message.components[0]?.['file'] as { url: string };
      const parsed = new URL(file.url);
      return `${parsed.pathname}${parsed.search}`;
    };
    const download = (path: string) => fx.server.app.http.inject({ method: 'GET', url: path });
    const frozen = fileUrl(forward.json());
    expect((await download(frozen)).body).toBe('hi');
    fx.clock.advance(3 * 24 * 60 * 60 * 1000);
    expect((await download(frozen)).statusCode).toBe(404);
    const later = await fx.g.call(
      'GET',
      url(`/${forward.json<{ id: string }>().id}`),
      fx.g.owner.token,
    );
    const fresh = fileUrl(later.json());
    expect(fresh).not.toBe(frozen);
    expect((await download(fresh)).body).toBe('hi');
  });

  it('edits: components replaced, IS_COMPONENTS_V2 set once and kept, empty rule', async () => {
    const message = (await send(fx.g.bot.token, {
      content: 'Vote',
      components: [buttons],
    })) as unknown as ComponentsMessage;
    const path = url(`/${message.id}`);
    const patch = (payload: unknown) => fx.g.call('PATCH', path, { auth: fx.g.bot.token, payload });

    const replaced = await patch({ components: [select] });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expectOpenApiResponse(replaced, 'PATCH', path);
    expect(replaced.json<ComponentsMessage>().components).toMatchObject([
      { type: 1, id: 1, components: [{ type: 3, id: 2, custom_id: 'pick' }] },
    ]);
    // Content kept: setting IS_COMPONENTS_V2 needs it cleared.
    const keepsContent = await patch({ flags: V2, components: [{ type: 10, content: 'v2' }] });
    expectError(keepsContent, 50035, ['PATCH', path]);
    expect(keepsContent.json()).toMatchObject({ errors: { content: {} } });
    const toV2 = await patch({
      flags: V2,
      content: null,
      components: [{ type: 10, content: `v2 <@${fx.g.owner.userId}>` }],
    });
    expect(toV2.statusCode, toV2.body).toBe(200);
    expectOpenApiResponse(toV2, 'PATCH', path);
    expect(toV2.json()).toMatchObject({
      flags: V2,
      content: '',
      components: [{ type: 10, id: 1, content: `v2 <@${fx.g.owner.userId}>` }],
      mentions: [{ id: fx.g.owner.userId }],
    });
    // The flag cannot be removed; content cannot come back.
    const unflagged = await patch({ flags: 0 });
    expect(unflagged.json<ComponentsMessage>().flags).toBe(V2);
    const content = await patch({ content: 'back' });
    expectError(content, 50035, ['PATCH', path]);
    const empty = await patch({ components: [] });
    expectError(empty, 50006, ['PATCH', path]);
    // A moderator's SUPPRESS_EMBEDS leaves the components and the flag alone.
    const suppressed = await fx.g.call('PATCH', path, {
      auth: fx.g.owner.token,
      payload: { flags: V2 | 4 },
    });
    expect(suppressed.statusCode, suppressed.body).toBe(200);
    expectOpenApiResponse(suppressed, 'PATCH', path);
    expect(suppressed.json()).toMatchObject({ flags: V2 | 4, components: [{ type: 10 }] });
    const stored = await fx.g.call('GET', path, fx.g.bot.token);
    expect(stored.json()).toMatchObject({ flags: V2 | 4, content: '', components: [{ type: 10 }] });

    // A person's message: components refused on edit too.
    const own = await send(fx.g.owner.token, { content: 'mine' });
    const edit = await fx.g.call('PATCH', url(`/${own.id}`), {
      auth: fx.g.owner.token,
      payload: { components: [buttons] },
    });
    expectError(edit, 50035, ['PATCH', url(`/${own.id}`)]);
  });
});
