import { describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/fieldFailure.js';
import { readComponentClick } from './click.js';
import { validateMessageComponents } from './messageComponents.js';
import { validateModal } from './modal.js';
import { readModalSubmit } from './submit.js';

const options = (...values: string[]) => values.map((value) => ({ label: value, value }));

/** A modal of every kind of input. */
const shown = validateModal({
  custom_id: 'survey',
  title: 'Survey',
  components: [
    { type: 10, content: 'Be honest' },
    {
      type: 18,
      label: 'Name',
      component: { type: 4, custom_id: 'name', style: 1, min_length: 2, max_length: 10 },
    },
    {
      type: 1,
      components: [{ type: 4, custom_id: 'bio', style: 2, label: 'Bio', required: false }],
    },
    {
      type: 18,
      label: 'Colour',
      component: { type: 3, custom_id: 'colour', options: options('red', 'blue'), max_values: 2 },
    },
    {
      type: 18,
      label: 'Size',
      component: { type: 21, custom_id: 'size', options: options('s', 'm', 'l'), required: false },
    },
  ],
});
const more = validateModal({
  custom_id: 'more',
  title: 'More',
  components: [
    {
      type: 18,
      label: 'Extras',
      component: {
        type: 22,
        custom_id: 'extras',
        options: options('a', 'b', 'c'),
        min_values: 0,
        required: false,
      },
    },
    { type: 18, label: 'Agree', component: { type: 23, custom_id: 'agree' } },
    { type: 18, label: 'Files', component: { type: 19, custom_id: 'files', max_values: 2 } },
    { type: 18, label: 'Who', component: { type: 5, custom_id: 'who' } },
  ],
});

const answer = (component: Record<string, unknown>, labelled = true) =>
  labelled ? { type: 18, component } : { type: 1, components: [component] };

describe('readModalSubmit', () => {
  it('returns the answers in the modal’s layout, with ids', () => {
    const submitted = {
      custom_id: 'survey',
      components: [
        answer({ type: 4, custom_id: 'name', value: 'Ada' }),
        answer({ type: 4, custom_id: 'bio', value: '' }, false),
        answer({ type: 3, custom_id: 'colour', values: ['blue', 'red'] }),
      ],
    };
    expect(readModalSubmit(shown, submitted, { attachmentIds: [] })).toEqual({
      components: [
        { type: 10, id: 1 },
        { type: 18, id: 2, component: { type: 4, id: 3, custom_id: 'name', value: 'Ada' } },
        { type: 1, id: 4, components: [{ type: 4, id: 5, custom_id: 'bio', value: '' }] },
        {
          type: 18,
          id: 6,
          component: { type: 3, id: 7, custom_id: 'colour', values: ['blue', 'red'] },
        },
        { type: 18, id: 8, component: { type: 21, id: 9, custom_id: 'size', value: null } },
      ],
      attachmentIds: [],
    });
  });

  it('reads checkboxes as booleans, groups as values, uploads as attachment ids', () => {
    const submitted = {
      custom_id: 'more',
      components: [
        answer({ type: 23, custom_id: 'agree', value: true }),
        answer({ type: 19, custom_id: 'files', values: ['71', '72'] }),
        answer({ type: 5, custom_id: 'who', values: ['41771983423143937'] }),
      ],
    };
    const read = readModalSubmit(more, submitted, { attachmentIds: ['71', '72', '73'] });
    expect(read.components.map((c) => (c as { component: unknown }).component)).toEqual([
      { type: 22, id: 2, custom_id: 'extras', values: [] },
      { type: 23, id: 4, custom_id: 'agree', value: true },
      { type: 19, id: 6, custom_id: 'files', values: ['71', '72'] },
      { type: 5, id: 8, custom_id: 'who', values: ['41771983423143937'] },
    ]);
    expect(read.attachmentIds).toEqual(['71', '72']);
  });

  it('refuses what does not match the modal', () => {
    const base = [answer({ type: 4, custom_id: 'name', value: 'Ada' })];
    const submit =
      (components: unknown[], customId = 'survey') =>
      () =>
        readModalSubmit(shown, { custom_id: customId, components }, { attachmentIds: [] });
    expect(failure(submit(base, 'other'))).toEqual({
      path: 'data.custom_id',
      code: 'MODAL_CUSTOM_ID_MISMATCH',
    });
    expect(failure(submit([]))).toEqual({ path: 'data.components', code: 'BASE_TYPE_REQUIRED' });
    expect(failure(submit([answer({ type: 4, custom_id: 'name', value: 'A' })]))).toEqual({
      path: 'data.components.0.component.value',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(
      failure(submit([answer({ type: 4, custom_id: 'name', value: 'x'.repeat(11) })])),
    ).toEqual({
      path: 'data.components.0.component.value',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(failure(submit([...base, answer({ type: 4, custom_id: 'ghost', value: 'x' })]))).toEqual(
      {
        path: 'data.components.1.component.custom_id',
        code: 'COMPONENT_NOT_FOUND',
      },
    );
    expect(failure(submit([answer({ type: 3, custom_id: 'name', values: ['x'] })]))).toEqual({
      path: 'data.components.0.component.type',
      code: 'COMPONENT_TYPE_MISMATCH',
    });
    expect(
      failure(submit([...base, answer({ type: 3, custom_id: 'colour', values: ['green'] })])),
    ).toEqual({
      path: 'data.components.1.component.values.0',
      code: 'COMPONENT_VALUE_INVALID',
    });
    expect(
      failure(submit([...base, answer({ type: 3, custom_id: 'colour', values: ['red', 'red'] })])),
    ).toEqual({
      path: 'data.components.1.component.values.1',
      code: 'COMPONENT_VALUE_INVALID',
    });
    expect(
      failure(
        submit([
          ...base,
          answer({ type: 3, custom_id: 'colour', values: ['red'] }),
          answer({ type: 21, custom_id: 'size', value: 'xl' }),
        ]),
      ),
    ).toEqual({
      path: 'data.components.2.component.value',
      code: 'COMPONENT_VALUE_INVALID',
    });
    expect(failure(submit([...base, answer({ type: 4, custom_id: 'name', value: 'Bo' })]))).toEqual(
      {
        path: 'data.components.1.component.custom_id',
        code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
      },
    );
  });

  it('refuses uploads that are not the submission’s files, and non-boolean checkboxes', () => {
    const submit = (components: unknown[]) => () =>
      readModalSubmit(more, { custom_id: 'more', components }, { attachmentIds: ['71'] });
    const who = answer({ type: 5, custom_id: 'who', values: ['1'] });
    expect(
      failure(submit([who, answer({ type: 19, custom_id: 'files', values: ['99'] })])),
    ).toEqual({
      path: 'data.components.1.component.values.0',
      code: 'COMPONENT_VALUE_INVALID',
    });
    expect(failure(submit([who]))).toEqual({
      path: 'data.components',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(
      failure(
        submit([
          who,
          answer({ type: 19, custom_id: 'files', values: ['71'] }),
          answer({ type: 23, custom_id: 'agree', value: 'yes' }),
        ]),
      ),
    ).toEqual({ path: 'data.components.2.component.value', code: 'BOOLEAN_TYPE_COERCE' });
    expect(
      failure(
        submit([
          answer({ type: 19, custom_id: 'files', values: ['71'] }),
          answer({ type: 5, custom_id: 'who', values: ['not-an-id'] }),
        ]),
      ),
    ).toEqual({ path: 'data.components.1.component.values.0', code: 'COMPONENT_VALUE_INVALID' });
  });
});

describe('readComponentClick', () => {
  const stored = validateMessageComponents(
    [
      {
        type: 1,
        components: [
          { type: 2, style: 1, label: 'Go', custom_id: 'go' },
          { type: 2, style: 4, label: 'Off', custom_id: 'off', disabled: true },
          { type: 2, style: 5, label: 'Docs', url: 'https://example.com' },
        ],
      },
      {
        type: 1,
        components: [
          { type: 3, custom_id: 'pick', options: options('a', 'b', 'c'), max_values: 2 },
        ],
      },
      { type: 1, components: [{ type: 6, custom_id: 'roles', min_values: 0, max_values: 3 }] },
    ],
    {
      flags: 0,
      hasContent: true,
      hasEmbeds: false,
      sender: 'bot',
      ids: () => '1',
      attachmentNames: [],
    },
  );

  it('finds the clicked button or select and its values', () => {
    expect(readComponentClick(stored, { component_type: 2, custom_id: 'go' })).toEqual({
      component: { type: 2, id: 2, style: 1, label: 'Go', custom_id: 'go' },
    });
    expect(
      readComponentClick(stored, { component_type: 3, custom_id: 'pick', values: ['c', 'a'] }),
    ).toMatchObject({ component: { custom_id: 'pick' }, values: ['c', 'a'] });
    expect(
      readComponentClick(stored, { component_type: 6, custom_id: 'roles', values: [] }),
    ).toMatchObject({
      values: [],
    });
  });

  it('refuses unknown, mismatched, disabled and out-of-range clicks', () => {
    expect(
      failure(() => readComponentClick(stored, { component_type: 2, custom_id: 'nope' })),
    ).toEqual({
      path: 'data.custom_id',
      code: 'COMPONENT_NOT_FOUND',
    });
    expect(
      failure(() => readComponentClick(stored, { component_type: 3, custom_id: 'go' })),
    ).toEqual({
      path: 'data.component_type',
      code: 'BASE_TYPE_CHOICES',
    });
    expect(
      failure(() => readComponentClick(stored, { component_type: 2, custom_id: 'off' })),
    ).toEqual({
      path: 'data.custom_id',
      code: 'COMPONENT_DISABLED',
    });
    expect(
      failure(() => readComponentClick(stored, { component_type: 2, custom_id: 'go', values: [] })),
    ).toEqual({ path: 'data.values', code: 'COMPONENT_FIELD_NOT_ALLOWED' });
    expect(
      failure(() => readComponentClick(stored, { component_type: 3, custom_id: 'pick' })),
    ).toEqual({
      path: 'data.values',
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(
      failure(() =>
        readComponentClick(stored, {
          component_type: 3,
          custom_id: 'pick',
          values: ['a', 'b', 'c'],
        }),
      ),
    ).toEqual({ path: 'data.values', code: 'BASE_TYPE_BAD_LENGTH' });
    expect(
      failure(() =>
        readComponentClick(stored, { component_type: 3, custom_id: 'pick', values: ['z'] }),
      ),
    ).toEqual({ path: 'data.values.0', code: 'COMPONENT_VALUE_INVALID' });
    expect(
      failure(() =>
        readComponentClick(stored, { component_type: 6, custom_id: 'roles', values: [7] }),
      ),
    ).toEqual({ path: 'data.values.0', code: 'STRING_TYPE_CONVERT' });
  });
});
