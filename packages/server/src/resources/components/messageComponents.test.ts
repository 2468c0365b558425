import { describe, expect, it } from 'vitest';
import { validateMessageComponents, type MessageComponentsOptions } from './messageComponents.js';
import { resolveComponentMedia } from './media.js';
import { componentsText } from './walk.js';
import { failure } from '../../../test/support/fieldFailure.js';

const V2 = 1 << 15;

/** The options of a bot's plain message; `ids` counts up from 900. */
function options(overrides: Partial<MessageComponentsOptions> = {}): MessageComponentsOptions {
  let next = 900;
  return {
    flags: 0,
    hasContent: true,
    hasEmbeds: false,
    sender: 'bot',
    ids: () => String((next += 1)),
    attachmentNames: [],
    ...overrides,
  };
}

const v2 = (overrides: Partial<MessageComponentsOptions> = {}) =>
  options({ flags: V2, hasContent: false, ...overrides });

const button = (custom_id: string, extra: Record<string, unknown> = {}) => ({
  type: 2,
  style: 1,
  label: custom_id,
  custom_id,
  ...extra,
});
const row = (...components: unknown[]) => ({ type: 1, components });
const select = (custom_id: string, extra: Record<string, unknown> = {}) => ({
  type: 3,
  custom_id,
  options: [
    { label: 'A', value: 'a' },
    { label: 'B', value: 'b' },
  ],
  ...extra,
});
const text = (content: string, extra: Record<string, unknown> = {}) => ({
  type: 10,
  content,
  ...extra,
});

describe('components v1 (no IS_COMPONENTS_V2)', () => {
  it('numbers rows and buttons in pre-order and keeps what was sent', () => {
    const wire = validateMessageComponents(
      [
        row(button('a'), { type: 2, style: 5, label: 'Docs', url: 'https://example.com/docs' }),
        row(select('s', { placeholder: 'Pick', min_values: 0, max_values: 2 })),
      ],
      options(),
    );
    expect(wire).toEqual([
      {
        type: 1,
        id: 1,
        components: [
          { type: 2, id: 2, style: 1, label: 'a', custom_id: 'a' },
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
            custom_id: 's',
            placeholder: 'Pick',
            min_values: 0,
            max_values: 2,
            options: [
              { label: 'A', value: 'a' },
              { label: 'B', value: 'b' },
            ],
          },
        ],
      },
    ]);
  });

  it('keeps explicit ids and numbers the rest around them; 0 counts as none', () => {
    const wire = validateMessageComponents(
      [row({ ...button('a'), id: 1 }, { ...button('b'), id: 0 }, button('c'))],
      options(),
    );
    const ids = [
      wire[0]?.['id'],
      ...(wire[0]?.['components'] as { id: number }[]).map((c) => c.id),
    ];
    expect(ids).toEqual([2, 1, 3, 4]);
    expect(
      failure(() =>
        validateMessageComponents(
          [row({ ...button('a'), id: 7 }, { ...button('b'), id: 7 })],
          options(),
        ),
      ),
    ).toEqual({ path: 'components.0.components.1.id', code: 'COMPONENT_ID_DUPLICATED' });
    expect(
      failure(() => validateMessageComponents([row({ ...button('a'), id: -1 })], options())),
    ).toEqual({ path: 'components.0.components.0.id', code: 'NUMBER_TYPE_MIN' });
    expect(
      failure(() => validateMessageComponents([row({ ...button('a'), id: 2 ** 31 })], options())),
    ).toEqual({ path: 'components.0.components.0.id', code: 'NUMBER_TYPE_MAX' });
  });

  it('allows at most 5 rows, and only rows at the top', () => {
    const rows = Array.from({ length: 6 }, (_, i) => row(button(`b${String(i)}`)));
    expect(validateMessageComponents(rows.slice(0, 5), options())).toHaveLength(5);
    expect(failure(() => validateMessageComponents(rows, options()))).toEqual({
      path: 'components',
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(failure(() => validateMessageComponents([text('hi')], options()))).toEqual({
      path: 'components.0.type',
      code: 'UNION_TYPE_CHOICES',
    });
    expect(failure(() => validateMessageComponents([{ components: [] }], options()))).toEqual({
      path: 'components.0.type',
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(failure(() => validateMessageComponents(['row'], options()))).toEqual({
      path: 'components.0',
      code: 'MODEL_TYPE_CONVERT',
    });
  });

  it('fits 5 buttons or exactly one select in a row', () => {
    const five = Array.from({ length: 5 }, (_, i) => button(`b${String(i)}`));
    expect(validateMessageComponents([row(...five)], options())).toHaveLength(1);
    expect(
      failure(() => validateMessageComponents([row(...five, button('x'))], options())),
    ).toEqual({ path: 'components.0.components', code: 'BASE_TYPE_BAD_LENGTH' });
    expect(failure(() => validateMessageComponents([row()], options()))).toEqual({
      path: 'components.0.components',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(
      failure(() => validateMessageComponents([row(button('a'), select('s'))], options())),
    ).toEqual({ path: 'components.0.components.1', code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED' });
    expect(
      failure(() => validateMessageComponents([row(select('s'), button('a'))], options())),
    ).toEqual({ path: 'components.0.components.1', code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED' });
    expect(
      failure(() =>
        validateMessageComponents([row({ type: 4, custom_id: 't', style: 1 })], options()),
      ),
    ).toEqual({ path: 'components.0.components.0.type', code: 'UNION_TYPE_CHOICES' });
  });

  it('keeps custom_ids unique across the message, 1–100 characters', () => {
    expect(
      failure(() => validateMessageComponents([row(button('a')), row(select('a'))], options())),
    ).toEqual({
      path: 'components.1.components.0.custom_id',
      code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
    });
    expect(
      failure(() =>
        validateMessageComponents([row(button('x'.repeat(101), { label: 'x' }))], options()),
      ),
    ).toEqual({ path: 'components.0.components.0.custom_id', code: 'BASE_TYPE_BAD_LENGTH' });
    expect(
      validateMessageComponents([row(button('x'.repeat(100), { label: 'x' }))], options()),
    ).toHaveLength(1);
  });
});

describe('buttons', () => {
  const one = (b: Record<string, unknown>) => () => validateMessageComponents([row(b)], options());
  const at = (field: string) => `components.0.components.0.${field}`;

  it('checks styles 1–6 and what each style carries', () => {
    expect(failure(one({ type: 2, style: 7, label: 'x', custom_id: 'x' }))).toEqual({
      path: at('style'),
      code: 'BASE_TYPE_CHOICES',
    });
    expect(failure(one({ type: 2, label: 'x', custom_id: 'x' }))).toEqual({
      path: at('style'),
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(failure(one({ type: 2, style: 2, label: 'x' }))).toEqual({
      path: at('custom_id'),
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(
      failure(one({ type: 2, style: 3, label: 'x', custom_id: 'x', url: 'https://a.b' })),
    ).toEqual({ path: at('url'), code: 'COMPONENT_FIELD_NOT_ALLOWED' });
    expect(failure(one({ type: 2, style: 5, label: 'x' }))).toEqual({
      path: at('url'),
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(
      failure(one({ type: 2, style: 5, label: 'x', url: 'https://a.b', custom_id: 'x' })),
    ).toEqual({ path: at('custom_id'), code: 'COMPONENT_FIELD_NOT_ALLOWED' });
    expect(failure(one({ type: 2, style: 5, label: 'x', url: 'ftp://a.b' }))).toEqual({
      path: at('url'),
      code: 'URL_TYPE_INVALID_URL',
    });
    expect(
      failure(one({ type: 2, style: 5, label: 'x', url: `https://a.b/${'x'.repeat(501)}` })),
    ).toEqual({ path: at('url'), code: 'BASE_TYPE_MAX_LENGTH' });
    expect(failure(one({ type: 2, style: 1, custom_id: 'x' }))).toEqual({
      path: at('label'),
      code: 'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED',
    });
    expect(failure(one(button('x', { label: 'l'.repeat(81) })))).toEqual({
      path: at('label'),
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(failure(one(button('x', { sku_id: '123' })))).toEqual({
      path: at('sku_id'),
      code: 'COMPONENT_FIELD_NOT_ALLOWED',
    });
  });

  it('premium buttons carry an sku_id and nothing else', () => {
    expect(
      validateMessageComponents([row({ type: 2, style: 6, sku_id: '1234567890' })], options()),
    ).toEqual([
      { type: 1, id: 1, components: [{ type: 2, id: 2, style: 6, sku_id: '1234567890' }] },
    ]);
    expect(failure(one({ type: 2, style: 6 }))).toEqual({
      path: at('sku_id'),
      code: 'BASE_TYPE_REQUIRED',
    });
    for (const field of ['custom_id', 'label', 'url', 'emoji']) {
      const value = field === 'emoji' ? { name: '🔥' } : field === 'url' ? 'https://a.b' : 'x';
      expect(failure(one({ type: 2, style: 6, sku_id: '1', [field]: value }))).toEqual({
        path: at(field),
        code: 'COMPONENT_FIELD_NOT_ALLOWED',
      });
    }
  });

  it('takes an emoji by name or id, and disabled', () => {
    const [wire] = validateMessageComponents(
      [
        row(
          { type: 2, style: 2, custom_id: 'e', emoji: { name: '🔥' }, disabled: true },
          { type: 2, style: 2, custom_id: 'f', emoji: { id: '41771983423143937', animated: true } },
        ),
      ],
      options(),
    );
    expect(wire?.['components']).toEqual([
      { type: 2, id: 2, style: 2, emoji: { name: '🔥' }, custom_id: 'e', disabled: true },
      {
        type: 2,
        id: 3,
        style: 2,
        emoji: { name: '', id: '41771983423143937', animated: true },
        custom_id: 'f',
      },
    ]);
    expect(failure(one(button('x', { emoji: { name: 'n'.repeat(33) } })))).toEqual({
      path: at('emoji.name'),
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(failure(one(button('x', { emoji: { id: 'abc' } })))).toEqual({
      path: at('emoji.id'),
      code: 'NUMBER_TYPE_COERCE',
    });
    expect(failure(one(button('x', { disabled: 'yes' })))).toEqual({
      path: at('disabled'),
      code: 'BOOLEAN_TYPE_COERCE',
    });
  });
});

describe('select menus', () => {
  const one = (s: Record<string, unknown>) => () => validateMessageComponents([row(s)], options());
  const at = (field: string) => `components.0.components.0.${field}`;

  it('string selects: 1–25 unique options, values within min/max', () => {
    const many = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ label: `L${String(i)}`, value: `v${String(i)}` }));
    expect(
      validateMessageComponents(
        [row(select('s', { options: many(25), max_values: 25 }))],
        options(),
      ),
    ).toHaveLength(1);
    expect(failure(one(select('s', { options: many(26) })))).toEqual({
      path: at('options'),
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(failure(one(select('s', { options: [] })))).toEqual({
      path: at('options'),
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(failure(one({ type: 3, custom_id: 's' }))).toEqual({
      path: at('options'),
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(
      failure(
        one(
          select('s', {
            options: [
              { label: 'a', value: 'v' },
              { label: 'b', value: 'v' },
            ],
          }),
        ),
      ),
    ).toEqual({ path: at('options.1.value'), code: 'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED' });
    expect(
      failure(one(select('s', { options: [{ label: 'l'.repeat(101), value: 'v' }] }))),
    ).toEqual({
      path: at('options.0.label'),
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(
      failure(one(select('s', { options: [{ label: 'l', value: 'v'.repeat(101) }] }))),
    ).toEqual({
      path: at('options.0.value'),
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(
      failure(
        one(select('s', { options: [{ label: 'l', value: 'v', description: 'd'.repeat(101) }] })),
      ),
    ).toEqual({ path: at('options.0.description'), code: 'BASE_TYPE_MAX_LENGTH' });
    expect(failure(one(select('s', { placeholder: 'p'.repeat(151) })))).toEqual({
      path: at('placeholder'),
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(failure(one(select('s', { min_values: 26 })))).toEqual({
      path: at('min_values'),
      code: 'NUMBER_TYPE_MAX',
    });
    expect(failure(one(select('s', { max_values: 0 })))).toEqual({
      path: at('max_values'),
      code: 'NUMBER_TYPE_MIN',
    });
    expect(failure(one(select('s', { max_values: 26 })))).toEqual({
      path: at('max_values'),
      code: 'NUMBER_TYPE_MAX',
    });
    expect(failure(one(select('s', { min_values: 2, max_values: 1 })))).toEqual({
      path: at('min_values'),
      code: 'SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX',
    });
    expect(failure(one(select('s', { min_values: 3, max_values: 3 })))).toEqual({
      path: at('min_values'),
      code: 'SELECT_COMPONENT_MIN_VALUES_EXCEEDS_OPTIONS',
    });
    expect(
      failure(
        one(
          select('s', {
            options: [
              { label: 'a', value: 'a', default: true },
              { label: 'b', value: 'b', default: true },
            ],
          }),
        ),
      ),
    ).toEqual({ path: at('options'), code: 'SELECT_COMPONENT_TOO_MANY_DEFAULTS' });
  });

  it('fills min/max_values and drops `required` in messages', () => {
    const [wire] = validateMessageComponents(
      [row(select('s', { required: false, disabled: false }))],
      options(),
    );
    expect(wire?.['components']).toEqual([
      {
        type: 3,
        id: 2,
        custom_id: 's',
        min_values: 1,
        max_values: 1,
        disabled: false,
        options: [
          { label: 'A', value: 'a' },
          { label: 'B', value: 'b' },
        ],
      },
    ]);
  });

  it('auto-populated selects (5–8): default_values of their types, channel_types', () => {
    const [wire] = validateMessageComponents(
      [
        row({
          type: 8,
          custom_id: 'c',
          channel_types: [0, 5],
          default_values: [{ type: 'channel', id: '41771983423143937' }],
        }),
        row({
          type: 7,
          custom_id: 'm',
          max_values: 2,
          default_values: [
            { type: 'user', id: '1' },
            { type: 'role', id: '2' },
          ],
        }),
      ],
      options(),
    );
    expect(wire?.['components']).toEqual([
      {
        type: 8,
        id: 2,
        custom_id: 'c',
        min_values: 1,
        max_values: 1,
        default_values: [{ type: 'channel', id: '41771983423143937' }],
        channel_types: [0, 5],
      },
    ]);
    expect(
      failure(one({ type: 5, custom_id: 'u', default_values: [{ type: 'role', id: '1' }] })),
    ).toEqual({
      path: at('default_values.0.type'),
      code: 'BASE_TYPE_CHOICES',
    });
    expect(
      failure(
        one({
          type: 6,
          custom_id: 'r',
          default_values: [
            { type: 'role', id: '1' },
            { type: 'role', id: '2' },
          ],
        }),
      ),
    ).toEqual({ path: at('default_values'), code: 'BASE_TYPE_MAX_LENGTH' });
    expect(failure(one({ type: 6, custom_id: 'r', default_values: [{ type: 'role' }] }))).toEqual({
      path: at('default_values.0.id'),
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(failure(one({ type: 8, custom_id: 'c', channel_types: [99] }))).toEqual({
      path: at('channel_types.0'),
      code: 'BASE_TYPE_CHOICES',
    });
    expect(failure(one({ type: 8, custom_id: 'c', channel_types: [0, 0] }))).toEqual({
      path: at('channel_types'),
      code: 'BASE_TYPE_INVALID',
    });
  });
});

describe('senders', () => {
  it('people may send no components (an empty list is fine)', () => {
    expect(validateMessageComponents([], options({ sender: 'user' }))).toEqual([]);
    expect(
      failure(() => validateMessageComponents([row(button('a'))], options({ sender: 'user' }))),
    ).toEqual({ path: 'components', code: 'COMPONENT_SENDER_NOT_ALLOWED' });
  });

  it('plain webhooks send only non-interactive components; app webhooks anything', () => {
    const link = { type: 2, style: 5, label: 'Docs', url: 'https://example.com' };
    expect(validateMessageComponents([row(link)], options({ sender: 'webhook' }))).toHaveLength(1);
    expect(validateMessageComponents([text('hi')], v2({ sender: 'webhook' }))).toHaveLength(1);
    for (const interactive of [button('a'), select('s'), { type: 2, style: 6, sku_id: '1' }]) {
      expect(
        failure(() =>
          validateMessageComponents([row(interactive)], options({ sender: 'webhook' })),
        ),
      ).toEqual({ path: 'components.0.components.0', code: 'COMPONENT_INTERACTIVE_NOT_ALLOWED' });
      expect(
        validateMessageComponents([row(interactive)], options({ sender: 'app_webhook' })),
      ).toHaveLength(1);
    }
  });
});

describe('components v2 (IS_COMPONENTS_V2)', () => {
  it('refuses content, embeds, poll and stickers with the flag', () => {
    for (const [key, path] of [
      ['hasContent', 'content'],
      ['hasEmbeds', 'embeds'],
      ['hasPoll', 'poll'],
      ['hasStickers', 'sticker_ids'],
    ] as const) {
      expect(failure(() => validateMessageComponents([text('hi')], v2({ [key]: true })))).toEqual({
        path,
        code: 'MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2',
      });
    }
    expect(validateMessageComponents([], options({ hasContent: true, hasEmbeds: true }))).toEqual(
      [],
    );
  });

  it('returns every component with the defaults the platform fills', () => {
    const wire = validateMessageComponents(
      [
        {
          type: 17,
          accent_color: 0x5865f2,
          components: [
            text('# Title'),
            { type: 14 },
            {
              type: 9,
              components: [text('left')],
              accessory: {
                type: 11,
                media: { url: 'https://cdn.example/a.png' },
                description: 'alt',
              },
            },
            { type: 12, items: [{ media: { url: 'attachment://b.png' }, spoiler: true }] },
            { type: 13, file: { url: 'attachment://game.zip' } },
            row(button('go')),
          ],
        },
        { type: 14, divider: false, spacing: 2 },
        { type: 9, components: [text('a'), text('b')], accessory: button('more') },
      ],
      v2({ attachmentNames: ['b.png', 'game.zip'] }),
    );
    expect(wire).toEqual([
      {
        type: 17,
        id: 1,
        accent_color: 0x5865f2,
        components: [
          { type: 10, id: 2, content: '# Title' },
          { type: 14, id: 3, spacing: 1, divider: true },
          {
            type: 9,
            id: 4,
            components: [{ type: 10, id: 5, content: 'left' }],
            accessory: {
              type: 11,
              id: 6,
              media: {
                id: '901',
                url: 'https://cdn.example/a.png',
                proxy_url: 'https://cdn.example/a.png',
              },
              description: 'alt',
              spoiler: false,
            },
          },
          {
            type: 12,
            id: 7,
            items: [
              { media: { id: '902', url: 'attachment://b.png' }, description: null, spoiler: true },
            ],
          },
          { type: 13, id: 8, file: { id: '903', url: 'attachment://game.zip' }, spoiler: false },
          {
            type: 1,
            id: 9,
            components: [{ type: 2, id: 10, style: 1, label: 'go', custom_id: 'go' }],
          },
        ],
        spoiler: false,
      },
      { type: 14, id: 11, spacing: 2, divider: false },
      {
        type: 9,
        id: 12,
        components: [
          { type: 10, id: 13, content: 'a' },
          { type: 10, id: 14, content: 'b' },
        ],
        accessory: { type: 2, id: 15, style: 1, label: 'more', custom_id: 'more' },
      },
    ]);
    expect(componentsText(wire)).toBe('# Title\nleft\na\nb');
  });

  it('allows 40 components in all, nested ones included', () => {
    const texts = (n: number) => Array.from({ length: n }, (_, i) => text(`t${String(i)}`));
    expect(validateMessageComponents(texts(40), v2())).toHaveLength(40);
    expect(failure(() => validateMessageComponents(texts(41), v2()))).toEqual({
      path: 'components',
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(
      failure(() =>
        validateMessageComponents([{ type: 17, components: texts(39) }, text('x')], v2()),
      ),
    ).toEqual({ path: 'components', code: 'COMPONENT_MAX_TOTAL_COMPONENTS_EXCEEDED' });
  });

  it('checks where each component may be', () => {
    expect(failure(() => validateMessageComponents([button('a')], v2()))).toEqual({
      path: 'components.0.type',
      code: 'UNION_TYPE_CHOICES',
    });
    expect(
      failure(() =>
        validateMessageComponents(
          [{ type: 17, components: [{ type: 17, components: [text('x')] }] }],
          v2(),
        ),
      ),
    ).toEqual({ path: 'components.0.components.0.type', code: 'UNION_TYPE_CHOICES' });
    expect(
      failure(() =>
        validateMessageComponents(
          [{ type: 9, components: [button('a')], accessory: button('b') }],
          v2(),
        ),
      ),
    ).toEqual({ path: 'components.0.components.0.type', code: 'UNION_TYPE_CHOICES' });
    expect(
      failure(() =>
        validateMessageComponents(
          [{ type: 9, components: [text('a')], accessory: text('b') }],
          v2(),
        ),
      ),
    ).toEqual({ path: 'components.0.accessory.type', code: 'UNION_TYPE_CHOICES' });
    expect(
      failure(() => validateMessageComponents([{ type: 9, components: [text('a')] }], v2())),
    ).toEqual({
      path: 'components.0.accessory',
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(
      failure(() =>
        validateMessageComponents(
          [
            {
              type: 9,
              components: [text('a'), text('b'), text('c'), text('d')],
              accessory: button('x'),
            },
          ],
          v2(),
        ),
      ),
    ).toEqual({ path: 'components.0.components', code: 'BASE_TYPE_BAD_LENGTH' });
  });

  it('checks text, media, separators and containers', () => {
    const fails = (component: unknown, names: string[] = []) =>
      failure(() => validateMessageComponents([component], v2({ attachmentNames: names })));
    expect(fails(text(''))).toEqual({
      path: 'components.0.content',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(fails({ type: 10 })).toEqual({
      path: 'components.0.content',
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(fails(text('x'.repeat(4001)))).toEqual({
      path: 'components.0.content',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(fails({ type: 12, items: [] })).toEqual({
      path: 'components.0.items',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    const item = { media: { url: 'https://a.b/c.png' } };
    expect(fails({ type: 12, items: Array.from({ length: 11 }, () => item) })).toEqual({
      path: 'components.0.items',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(fails({ type: 12, items: [{ media: { url: 'javascript:alert(1)' } }] })).toEqual({
      path: 'components.0.items.0.media.url',
      code: 'URL_TYPE_INVALID_URL',
    });
    expect(fails({ type: 12, items: [{ ...item, description: 'd'.repeat(1025) }] })).toEqual({
      path: 'components.0.items.0.description',
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(fails({ type: 13, file: { url: 'https://a.b/c.zip' } })).toEqual({
      path: 'components.0.file.url',
      code: 'UNFURLED_MEDIA_ITEM_ATTACHMENT_REQUIRED',
    });
    expect(fails({ type: 13, file: { url: 'attachment://missing.zip' } }, ['other.zip'])).toEqual({
      path: 'components.0.file.url',
      code: 'UNFURLED_MEDIA_ITEM_UNKNOWN_ATTACHMENT',
    });
    expect(fails({ type: 13 })).toEqual({ path: 'components.0.file', code: 'BASE_TYPE_REQUIRED' });
    expect(fails({ type: 14, spacing: 3 })).toEqual({
      path: 'components.0.spacing',
      code: 'BASE_TYPE_CHOICES',
    });
    expect(fails({ type: 14, divider: 1 })).toEqual({
      path: 'components.0.divider',
      code: 'BOOLEAN_TYPE_COERCE',
    });
    expect(fails({ type: 17, components: [] })).toEqual({
      path: 'components.0.components',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(fails({ type: 17, accent_color: 0x1000000, components: [text('x')] })).toEqual({
      path: 'components.0.accent_color',
      code: 'NUMBER_TYPE_MAX',
    });
  });
});

describe('resolveComponentMedia', () => {
  it('points attachment:// media at the message files, with File name and size', () => {
    const stored = validateMessageComponents(
      [
        { type: 13, file: { url: 'attachment://game.zip' } },
        {
          type: 12,
          items: [
            { media: { url: 'https://a.b/c.png' } },
            { media: { url: 'attachment://gone.png' } },
          ],
        },
      ],
      v2({ attachmentNames: ['game.zip', 'gone.png'] }),
    );
    const files = [{ id: '55', filename: 'game.zip', size: 1234, contentType: 'application/zip' }];
    const sent = resolveComponentMedia(stored, files, (file) => `https://files/${file.id}`);
    expect(sent).toEqual([
      {
        type: 13,
        id: 1,
        file: {
          id: '901',
          url: 'https://files/55',
          proxy_url: 'https://files/55',
          content_type: 'application/zip',
          attachment_id: '55',
        },
        spoiler: false,
        name: 'game.zip',
        size: 1234,
      },
      {
        type: 12,
        id: 2,
        items: [
          {
            media: { id: '902', url: 'https://a.b/c.png', proxy_url: 'https://a.b/c.png' },
            description: null,
            spoiler: false,
          },
          {
            media: { id: '903', url: 'attachment://gone.png', proxy_url: 'attachment://gone.png' },
            description: null,
            spoiler: false,
          },
        ],
      },
    ]);
    const v1 = validateMessageComponents([row(button('a'))], options());
    expect(resolveComponentMedia(v1, files, () => 'unused')).toEqual(v1);
  });
});
