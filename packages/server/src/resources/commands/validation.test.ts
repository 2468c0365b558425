import { describe, expect, it } from 'vitest';
import { useCommandFixture } from '../../../test/support/commandFixture.js';
import { describeDrivers } from '../../../test/support/drivers.js';

const opt = (extra: object) => ({ type: 3, name: 'text', description: 'd', ...extra });

describeDrivers('application command validation on $driver', (driver) => {
  const fx = useCommandFixture(driver);
  const path = () => `/applications/${fx.appId}/commands`;

  /** POSTs the body; returns the 50035 `errors` tree (and checks nothing was written). */
  const refused = async (payload: unknown) => {
    const before = (await fx.call(`GET ${path()}`, fx.bot)).json<unknown>();
    const res = await fx.call(`POST ${path()}`, fx.bot, { payload });
    expect(res.statusCode, res.body).toBe(400);
    const body = res.json<{ code: number; errors: Record<string, unknown> }>();
    expect(body.code).toBe(50035);
    expect((await fx.call(`GET ${path()}`, fx.bot)).json()).toEqual(before);
    return body.errors;
  };
  const accepted = async (payload: object) => {
    const res = await fx.call(`POST ${path()}`, fx.bot, { payload });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<Record<string, unknown>>();
  };
  const leaf = (code: string) => ({ _errors: [expect.objectContaining({ code })] });

  describe('names and descriptions', () => {
    it("takes slash names of letters, digits, - _ and ' in any script, lowercase, 1–32", async () => {
      for (const name of [
        'ping',
        'a',
        'x'.repeat(32),
        'düsseldorf',
        'пинг',
        'नमस्ते',
        'สวัสดี',
        "its_a-b'c",
        '名前',
      ]) {
        const made = await accepted({ name, description: 'd' });
        await fx.call(`DELETE ${path()}/${String(made['id'])}`, fx.bot);
      }
    });

    it('refuses bad slash names with the platform’s codes', async () => {
      expect(await refused({ name: 'Ping', description: 'd' })).toEqual({
        name: leaf('APPLICATION_COMMAND_INVALID_NAME'),
      });
      for (const name of ['two words', 'bang!', 'emoji😀', 'a.b']) {
        expect(await refused({ name, description: 'd' })).toEqual({
          name: leaf('STRING_TYPE_REGEX'),
        });
      }
      expect(await refused({ name: 'x'.repeat(33), description: 'd' })).toEqual({
        name: leaf('BASE_TYPE_MAX_LENGTH'),
      });
      expect(await refused({ name: '', description: 'd' })).toEqual({
        name: leaf('BASE_TYPE_MIN_LENGTH'),
      });
      expect(await refused({ description: 'd' })).toEqual({ name: leaf('BASE_TYPE_REQUIRED') });
    });

    it('needs a 1–100 description on slash commands and none on context menus', async () => {
      expect(await refused({ name: 'ping' })).toEqual({
        description: leaf('BASE_TYPE_BAD_LENGTH'),
      });
      expect(await refused({ name: 'ping', description: '' })).toEqual({
        description: leaf('BASE_TYPE_BAD_LENGTH'),
      });
      expect(await refused({ name: 'ping', description: 'x'.repeat(101) })).toEqual({
        description: leaf('BASE_TYPE_MAX_LENGTH'),
      });
      expect(await refused({ name: 'Show', type: 2, description: 'no' })).toEqual({
        description: leaf('BASE_TYPE_MAX_LENGTH'),
      });
      const menu = await accepted({ name: 'Report This Message!', type: 3, description: '' });
      expect(menu).toMatchObject({ name: 'Report This Message!', description: '' });
      expect(await refused({ name: '   ', type: 2 })).toEqual({
        name: leaf('APPLICATION_COMMAND_INVALID_NAME'),
      });
      expect(await refused({ name: 'Show', type: 2, options: [opt({})] })).toEqual({
        options: leaf('BASE_TYPE_INVALID'),
      });
    });

    it('checks localization keys and values by the same rules', async () => {
      expect(
        await refused({ name: 'ping', description: 'd', name_localizations: { xx: 'ping' } }),
      ).toEqual({ name_localizations: { xx: leaf('LOCALE_KEY_INVALID') } });
      expect(
        await refused({ name: 'ping', description: 'd', name_localizations: { fr: 'Pingue' } }),
      ).toEqual({ name_localizations: { fr: leaf('APPLICATION_COMMAND_INVALID_NAME') } });
      expect(
        await refused({
          name: 'ping',
          description: 'd',
          description_localizations: { de: 'x'.repeat(101) },
        }),
      ).toEqual({ description_localizations: { de: leaf('BASE_TYPE_MAX_LENGTH') } });
      const made = await accepted({
        name: 'Show',
        type: 2,
        name_localizations: { 'pt-BR': 'Mostrar Perfil' },
      });
      expect(made['name_localizations']).toEqual({ 'pt-BR': 'Mostrar Perfil' });
    });
  });

  describe('options', () => {
    it('stores every option type with its own fields', async () => {
      const options = [
        opt({ required: true, min_length: 0, max_length: 6000, autocomplete: true }),
        { type: 4, name: 'count', description: 'd', required: true, min_value: -5, max_value: 5 },
        { type: 10, name: 'ratio', description: 'd', choices: [{ name: 'half', value: 0.5 }] },
        { type: 5, name: 'flag', description: 'd' },
        { type: 6, name: 'who', description: 'd' },
        { type: 7, name: 'where', description: 'd', channel_types: [0, 2, 15] },
        { type: 8, name: 'role', description: 'd' },
        { type: 9, name: 'any', description: 'd' },
        { type: 11, name: 'file', description: 'd', file_types: ['image', '.pdf'] },
      ];
      const made = await accepted({ name: 'all', description: 'd', options });
      expect(made['options']).toEqual(options);
    });

    it('nests groups of subcommands of values, and no other way', async () => {
      const made = await accepted({
        name: 'admin',
        description: 'd',
        options: [
          {
            type: 2,
            name: 'user',
            description: 'd',
            options: [
              { type: 1, name: 'ban', description: 'd', options: [opt({ required: true })] },
            ],
          },
          { type: 1, name: 'status', description: 'd' },
        ],
      });
      expect(made['options']).toHaveLength(2);
      expect(
        await refused({
          name: 'x',
          description: 'd',
          options: [{ type: 1, name: 'a', description: 'd' }, opt({})],
        }),
      ).toEqual({ options: { '1': { type: leaf('APPLICATION_COMMAND_OPTION_TYPE_INVALID') } } });
      expect(
        await refused({
          name: 'x',
          description: 'd',
          options: [{ type: 2, name: 'g', description: 'd', options: [opt({})] }],
        }),
      ).toEqual({
        options: {
          '0': { options: { '0': { type: leaf('APPLICATION_COMMAND_OPTION_TYPE_INVALID') } } },
        },
      });
      expect(
        await refused({
          name: 'x',
          description: 'd',
          options: [
            {
              type: 1,
              name: 's',
              description: 'd',
              options: [{ type: 1, name: 't', description: 'd' }],
            },
          ],
        }),
      ).toMatchObject({ options: { '0': { options: { '0': { type: {} } } } } });
      expect(await refused({ name: 'x', description: 'd', options: [opt({ type: 12 })] })).toEqual({
        options: { '0': { type: leaf('ENUM_TYPE_COERCE') } },
      });
    });

    it('wants required options first, unique names, and at most 25 options and choices', async () => {
      expect(
        await refused({
          name: 'x',
          description: 'd',
          options: [opt({}), opt({ name: 'b', required: true })],
        }),
      ).toEqual({
        options: { '1': { required: leaf('APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID') } },
      });
      expect(await refused({ name: 'x', description: 'd', options: [opt({}), opt({})] })).toEqual({
        options: { '1': { name: leaf('APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME') } },
      });
      const many = Array.from({ length: 26 }, (_, i) => opt({ name: `o${String(i)}` }));
      expect(await refused({ name: 'x', description: 'd', options: many })).toEqual({
        options: leaf('BASE_TYPE_MAX_LENGTH'),
      });
      const choices = Array.from({ length: 26 }, (_, i) => ({ name: `c${String(i)}`, value: 'v' }));
      expect(await refused({ name: 'x', description: 'd', options: [opt({ choices })] })).toEqual({
        options: { '0': { choices: leaf('BASE_TYPE_MAX_LENGTH') } },
      });
      expect(
        await refused({ name: 'x', description: 'd', options: [opt({ name: 'Up' })] }),
      ).toEqual({
        options: { '0': { name: leaf('APPLICATION_COMMAND_INVALID_NAME') } },
      });
    });

    it('refuses a command of more than 8000 characters of names, descriptions and choices', async () => {
      const choices = Array.from({ length: 25 }, (_, i) => ({
        name: `c${String(i)}`,
        value: 'v'.repeat(200),
      }));
      const options = Array.from({ length: 2 }, (_, i) => opt({ name: `o${String(i)}`, choices }));
      const errors = await refused({ name: 'big', description: 'd', options });
      expect(errors).toEqual({
        _errors: [expect.objectContaining({ code: 'APPLICATION_COMMAND_TOO_LARGE' })],
      });
      await accepted({ name: 'fits', description: 'd', options: options.slice(0, 1) });
      const bulk = await fx.call(`PUT ${path()}`, fx.bot, {
        payload: [
          { name: 'small', description: 'd' },
          { name: 'big', description: 'd', options },
        ],
      });
      expect(bulk.json()).toMatchObject({
        code: 50035,
        errors: { '1': { _errors: [{ code: 'APPLICATION_COMMAND_TOO_LARGE' }] } },
      });
    });

    it('refuses choices with autocomplete, mistyped choices, bad ranges and misplaced fields', async () => {
      const cases: [object, object][] = [
        [
          opt({ autocomplete: true, choices: [{ name: 'a', value: 'a' }] }),
          { autocomplete: leaf('APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE') },
        ],
        [
          { type: 4, name: 'n', description: 'd', choices: [{ name: 'a', value: 1.5 }] },
          { choices: { '0': { value: leaf('BASE_TYPE_INVALID') } } },
        ],
        [
          opt({ choices: [{ name: 'a', value: 3 }] }),
          { choices: { '0': { value: leaf('BASE_TYPE_INVALID') } } },
        ],
        [
          { type: 4, name: 'n', description: 'd', min_value: 5, max_value: 1 },
          { min_value: leaf('NUMBER_TYPE_MAX') },
        ],
        [
          { type: 4, name: 'n', description: 'd', min_value: 1.5 },
          { min_value: leaf('NUMBER_TYPE_COERCE') },
        ],
        [
          { type: 4, name: 'n', description: 'd', max_value: 2 ** 60 },
          { max_value: leaf('NUMBER_TYPE_COERCE') },
        ],
        [opt({ min_length: 10, max_length: 2 }), { min_length: leaf('NUMBER_TYPE_MAX') }],
        [opt({ max_length: 6001 }), { max_length: leaf('NUMBER_TYPE_MAX') }],
        [opt({ min_length: -1 }), { min_length: leaf('NUMBER_TYPE_MIN') }],
        [opt({ min_value: 1 }), { min_value: leaf('BASE_TYPE_INVALID') }],
        [opt({ channel_types: [0] }), { channel_types: leaf('BASE_TYPE_INVALID') }],
        [
          { type: 7, name: 'c', description: 'd', channel_types: [99] },
          { channel_types: { '0': leaf('ENUM_TYPE_COERCE') } },
        ],
        [
          { type: 5, name: 'b', description: 'd', autocomplete: true },
          { autocomplete: leaf('BASE_TYPE_INVALID') },
        ],
        [
          { type: 11, name: 'f', description: 'd', file_types: ['exe'] },
          { file_types: { '0': leaf('BASE_TYPE_INVALID') } },
        ],
        [
          { type: 1, name: 's', description: 'd', required: true },
          { required: leaf('BASE_TYPE_INVALID') },
        ],
        [opt({ description: '' }), { description: leaf('BASE_TYPE_MIN_LENGTH') }],
      ];
      for (const [option, errors] of cases) {
        expect(await refused({ name: 'x', description: 'd', options: [option] })).toEqual({
          options: { '0': errors },
        });
      }
    });
  });

  describe('the other fields, and hostile input', () => {
    it('takes contexts, integration types, permissions (string or number) and nsfw', async () => {
      const made = await accepted({
        name: 'x',
        description: 'd',
        contexts: [2, 0],
        integration_types: [1],
        default_member_permissions: 8,
        nsfw: true,
      });
      expect(made).toMatchObject({
        contexts: [2, 0],
        integration_types: [1],
        default_member_permissions: '8',
        nsfw: true,
        dm_permission: false,
      });
      const zero = await accepted({
        name: 'y',
        description: 'd',
        default_member_permissions: '0',
        dm_permission: false,
      });
      expect(zero).toMatchObject({
        default_member_permissions: '0',
        dm_permission: false,
        contexts: null,
      });
    });

    it('refuses bad enums, duplicates and wrong types with 50035, never a 500', async () => {
      const bodies: [unknown, object][] = [
        [{ name: 'x', description: 'd', contexts: [3] }, { contexts: {} }],
        [{ name: 'x', description: 'd', contexts: [0, 0] }, { contexts: {} }],
        [{ name: 'x', description: 'd', contexts: [] }, { contexts: {} }],
        [{ name: 'x', description: 'd', integration_types: [2] }, { integration_types: {} }],
        [
          { name: 'x', description: 'd', default_member_permissions: 'all' },
          { default_member_permissions: {} },
        ],
        [{ name: 'x', description: 'd', nsfw: 'yes' }, { nsfw: {} }],
        [{ name: 'x', description: 'd', type: 9 }, { type: {} }],
        [{ name: 'x', description: 'd', handler: 1 }, { handler: {} }],
        [{ name: 42, description: 'd' }, { name: {} }],
        [
          { name: ['x'], description: { a: 1 } },
          { name: {}, description: {} },
        ],
        [{ name: 'x', description: 'd', options: 'none' }, { options: {} }],
        [{ name: 'x', description: 'd', options: [null] }, { options: {} }],
        [{ name: 'x', description: 'd', name_localizations: ['fr'] }, { name_localizations: {} }],
        [{ name: 'x\u0000y', description: 'd' }, { name: {} }],
        [{ name: 'x', description: 'y'.repeat(100_000) }, { description: {} }],
      ];
      for (const [payload, errors] of bodies) {
        expect(await refused(payload)).toMatchObject(errors);
      }
      for (const payload of ['"text"', '[]', '12']) {
        const res = await fx.app.http.inject({
          method: 'POST',
          url: `/api/v10${path()}`,
          headers: { authorization: fx.bot, 'content-type': 'application/json' },
          payload,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toMatchObject({ code: 50035 });
      }
    });

    it('keeps choice values and descriptions with newlines as sent', async () => {
      const made = await accepted({
        name: 'note',
        description: 'd',
        options: [opt({ choices: [{ name: 'multi', value: 'line one\nline two\r\nthree' }] })],
      });
      expect(made['options']).toEqual([
        opt({ choices: [{ name: 'multi', value: 'line one\nline two\r\nthree' }] }),
      ]);
    });
  });
});
