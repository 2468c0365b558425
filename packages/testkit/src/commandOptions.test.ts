import { describe, expect, it } from 'vitest';
import { buildOptions, type IndexedCommand } from './commandOptions.js';
import { buildModalSubmit } from './components.js';

const CONFIG: IndexedCommand = {
  id: '1',
  application_id: '2',
  type: 1,
  name: 'config',
  options: [
    {
      type: 2,
      name: 'audio',
      options: [
        {
          type: 1,
          name: 'set',
          options: [
            { type: 4, name: 'volume' },
            { type: 11, name: 'sample' },
            { type: 6, name: 'who' },
          ],
        },
      ],
    },
  ],
};

describe('buildOptions', () => {
  it('nests a group and subcommand and types each value by its definition', () => {
    const built = buildOptions(CONFIG, {
      path: ['audio', 'set'],
      values: { volume: 7, sample: { name: 'a.ogg', data: 'x' }, who: { id: '9' } },
    });
    expect(built.options).toEqual([
      {
        type: 2,
        name: 'audio',
        options: [
          {
            type: 1,
            name: 'set',
            options: [
              { type: 4, name: 'volume', value: 7 },
              { type: 11, name: 'sample', value: '0' },
              { type: 6, name: 'who', value: '9' },
            ],
          },
        ],
      },
    ]);
    expect(built.attachments).toEqual([{ id: '0', filename: 'a.ogg' }]);
    expect(built.files.map((f) => f.name)).toEqual(['a.ogg']);
  });

  it('takes text in a number option only while it is being typed', () => {
    const typing = buildOptions(CONFIG, {
      path: ['audio', 'set'],
      values: { volume: '1' },
      focused: 'volume',
    });
    expect(typing.options[0]?.options?.[0]?.options).toEqual([
      { type: 4, name: 'volume', value: '1', focused: true },
    ]);
    expect(() => buildOptions(CONFIG, { path: ['audio', 'set'], values: { volume: '1' } })).toThrow(
      '/config option "volume" takes a number',
    );
  });

  it('names what the command has when a subcommand or option is not there', () => {
    expect(() => buildOptions(CONFIG, { path: ['video'], values: {} })).toThrow(
      '/config has no subcommand "video"; it has "audio"',
    );
    expect(() => buildOptions(CONFIG, { path: ['audio', 'set'], values: { gain: 1 } })).toThrow(
      '/config has no option "gain"; it has "volume", "sample", "who"',
    );
  });
});

describe('buildModalSubmit', () => {
  it("answers each field in the modal's layout, files by reference", () => {
    const { data, files } = buildModalSubmit(
      {
        custom_id: 'bug',
        components: [
          { type: 10, id: 1 },
          { type: 18, component: { type: 4, custom_id: 'title' } },
          { type: 18, component: { type: 19, custom_id: 'shots' } },
          { type: 1, components: [{ type: 4, custom_id: 'legacy' }] },
        ],
      },
      { title: 'It broke', shots: [{ name: 's.png', data: 'png' }], legacy: 'old' },
    );
    expect(data).toEqual({
      custom_id: 'bug',
      components: [
        { type: 10, id: 1 },
        { type: 18, component: { type: 4, custom_id: 'title', value: 'It broke' } },
        { type: 18, component: { type: 19, custom_id: 'shots', values: ['0'] } },
        { type: 1, components: [{ type: 4, custom_id: 'legacy', value: 'old' }] },
      ],
      attachments: [{ id: '0', filename: 's.png' }],
    });
    expect(files.map((f) => f.name)).toEqual(['s.png']);
  });
});
