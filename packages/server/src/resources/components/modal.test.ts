import { describe, expect, it } from 'vitest';
import { failure } from '../../../test/support/fieldFailure.js';
import { validateModal } from './modal.js';

const textInput = (custom_id: string, extra: Record<string, unknown> = {}) => ({
  type: 4,
  custom_id,
  style: 1,
  ...extra,
});
const label = (component: unknown, extra: Record<string, unknown> = {}) => ({
  type: 18,
  label: 'Question',
  component,
  ...extra,
});
const modal = (...components: unknown[]) => ({ custom_id: 'form', title: 'Form', components });
const options = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ label: `L${String(i)}`, value: `v${String(i)}` }));

/** The first error of a modal with this one component. */
const fails = (component: unknown) => failure(() => validateModal(modal(component)));

describe('validateModal', () => {
  it('returns the modal numbered, with the defaults the platform fills', () => {
    expect(
      validateModal(
        modal(
          { type: 10, content: 'Tell us' },
          label(textInput('name', { max_length: 20, placeholder: 'Ada' }), {
            description: 'Yours',
          }),
          { type: 1, components: [textInput('legacy', { label: 'Old style', style: 2 })] },
          label({ type: 19, custom_id: 'files', max_values: 3, file_types: ['image', '.pdf'] }),
          label({ type: 21, custom_id: 'pick', options: options(2), required: false }),
        ),
      ),
    ).toEqual({
      custom_id: 'form',
      title: 'Form',
      components: [
        { type: 10, id: 1, content: 'Tell us' },
        {
          type: 18,
          id: 2,
          label: 'Question',
          description: 'Yours',
          component: {
            type: 4,
            id: 3,
            custom_id: 'name',
            style: 1,
            label: null,
            min_length: null,
            max_length: 20,
            required: true,
            placeholder: 'Ada',
          },
        },
        {
          type: 1,
          id: 4,
          components: [
            {
              type: 4,
              id: 5,
              custom_id: 'legacy',
              style: 2,
              label: 'Old style',
              min_length: null,
              max_length: null,
              required: true,
            },
          ],
        },
        {
          type: 18,
          id: 6,
          label: 'Question',
          component: {
            type: 19,
            id: 7,
            custom_id: 'files',
            min_values: 1,
            max_values: 3,
            required: true,
            file_types: ['image', '.pdf'],
          },
        },
        {
          type: 18,
          id: 8,
          label: 'Question',
          component: {
            type: 21,
            id: 9,
            custom_id: 'pick',
            options: [
              { value: 'v0', label: 'L0' },
              { value: 'v1', label: 'L1' },
            ],
            required: false,
          },
        },
      ],
    });
  });

  it('checks custom_id, title and 1–5 components', () => {
    const one = [{ type: 10, content: 'x' }];
    expect(failure(() => validateModal({ title: 'T', components: one }))).toEqual({
      path: 'data.custom_id',
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(
      failure(() => validateModal({ custom_id: 'c'.repeat(101), title: 'T', components: one })),
    ).toEqual({ path: 'data.custom_id', code: 'BASE_TYPE_BAD_LENGTH' });
    expect(
      failure(() => validateModal({ custom_id: 'c', title: 't'.repeat(46), components: one })),
    ).toEqual({ path: 'data.title', code: 'BASE_TYPE_BAD_LENGTH' });
    expect(failure(() => validateModal({ custom_id: 'c', title: '   ', components: one }))).toEqual(
      {
        path: 'data.title',
        code: 'BASE_TYPE_REQUIRED',
      },
    );
    expect(failure(() => validateModal({ custom_id: 'c', title: 'T', components: [] }))).toEqual({
      path: 'data.components',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    const six = Array.from({ length: 6 }, (_, i) => label(textInput(`t${String(i)}`)));
    expect(failure(() => validateModal(modal(...six)))).toEqual({
      path: 'data.components',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(failure(() => validateModal('modal'))).toEqual({
      path: 'data',
      code: 'MODEL_TYPE_CONVERT',
    });
  });

  it('puts String Selects and the new inputs only inside a Label', () => {
    const stringSelect = { type: 3, custom_id: 's', options: options(2) };
    expect(fails(stringSelect)).toEqual({
      path: 'data.components.0.type',
      code: 'UNION_TYPE_CHOICES',
    });
    expect(fails({ type: 1, components: [stringSelect] })).toEqual({
      path: 'data.components.0.components.0.type',
      code: 'UNION_TYPE_CHOICES',
    });
    expect(fails({ type: 2, style: 1, custom_id: 'b', label: 'b' })).toEqual({
      path: 'data.components.0.type',
      code: 'UNION_TYPE_CHOICES',
    });
    expect(fails(label({ type: 2, style: 1, custom_id: 'b', label: 'b' }))).toEqual({
      path: 'data.components.0.component.type',
      code: 'UNION_TYPE_CHOICES',
    });
    expect(validateModal(modal(label(stringSelect))).components[0]).toMatchObject({
      component: { type: 3, custom_id: 's', min_values: 1, max_values: 1, required: true },
    });
  });

  it('checks Labels and legacy rows', () => {
    expect(fails(label(textInput('t'), { label: 'l'.repeat(46) }))).toEqual({
      path: 'data.components.0.label',
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(fails(label(textInput('t'), { description: 'd'.repeat(101) }))).toEqual({
      path: 'data.components.0.description',
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(fails({ type: 18, label: 'x' })).toEqual({
      path: 'data.components.0.component',
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(fails(label(textInput('t', { label: 'own' })))).toEqual({
      path: 'data.components.0.component.label',
      code: 'COMPONENT_FIELD_NOT_ALLOWED',
    });
    expect(fails({ type: 1, components: [textInput('t')] })).toEqual({
      path: 'data.components.0.components.0.label',
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(
      fails({
        type: 1,
        components: [textInput('a', { label: 'a' }), textInput('b', { label: 'b' })],
      }),
    ).toEqual({ path: 'data.components.0.components', code: 'BASE_TYPE_BAD_LENGTH' });
  });

  it('refuses `disabled` on any modal component', () => {
    expect(fails(label(textInput('t', { disabled: false })))).toEqual({
      path: 'data.components.0.component.disabled',
      code: 'MODAL_COMPONENT_DISABLED',
    });
    expect(fails(label({ type: 5, custom_id: 'u', disabled: true }))).toEqual({
      path: 'data.components.0.component.disabled',
      code: 'MODAL_COMPONENT_DISABLED',
    });
    expect(
      fails({ type: 1, components: [textInput('t', { label: 'l', disabled: true })] }),
    ).toEqual({
      path: 'data.components.0.components.0.disabled',
      code: 'MODAL_COMPONENT_DISABLED',
    });
    expect(fails({ ...label(textInput('t')), disabled: true })).toEqual({
      path: 'data.components.0.disabled',
      code: 'MODAL_COMPONENT_DISABLED',
    });
  });

  it('checks Text Inputs', () => {
    const at = (field: string) => `data.components.0.component.${field}`;
    expect(fails(label(textInput('t', { style: 3 })))).toEqual({
      path: at('style'),
      code: 'BASE_TYPE_CHOICES',
    });
    expect(fails(label({ type: 4, custom_id: 't' }))).toEqual({
      path: at('style'),
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(fails(label(textInput('t', { min_length: 4001 })))).toEqual({
      path: at('min_length'),
      code: 'NUMBER_TYPE_MAX',
    });
    expect(fails(label(textInput('t', { max_length: 0 })))).toEqual({
      path: at('max_length'),
      code: 'NUMBER_TYPE_MIN',
    });
    expect(fails(label(textInput('t', { min_length: 5, max_length: 4 })))).toEqual({
      path: at('min_length'),
      code: 'TEXT_INPUT_MIN_LENGTH_EXCEEDS_MAX',
    });
    expect(fails(label(textInput('t', { value: 'v'.repeat(4001) })))).toEqual({
      path: at('value'),
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(fails(label(textInput('t', { max_length: 3, value: 'long' })))).toEqual({
      path: at('value'),
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(fails(label(textInput('t', { placeholder: 'p'.repeat(101) })))).toEqual({
      path: at('placeholder'),
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(
      failure(() => validateModal(modal(label(textInput('same')), label(textInput('same'))))),
    ).toEqual({
      path: 'data.components.1.component.custom_id',
      code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
    });
  });

  it('checks selects in a modal: required by default, then min_values ≥ 1', () => {
    const at = (field: string) => `data.components.0.component.${field}`;
    expect(fails(label({ type: 6, custom_id: 'r', min_values: 0 }))).toEqual({
      path: at('min_values'),
      code: 'SELECT_COMPONENT_MIN_VALUES_REQUIRED',
    });
    expect(
      validateModal(modal(label({ type: 6, custom_id: 'r', min_values: 0, required: false })))
        .components[0],
    ).toMatchObject({ component: { min_values: 0, required: false } });
  });

  it('checks File Uploads', () => {
    const at = (field: string) => `data.components.0.component.${field}`;
    const upload = (extra: Record<string, unknown>) =>
      label({ type: 19, custom_id: 'f', ...extra });
    expect(fails(upload({ max_values: 11 }))).toEqual({
      path: at('max_values'),
      code: 'NUMBER_TYPE_MAX',
    });
    expect(fails(upload({ min_values: 11 }))).toEqual({
      path: at('min_values'),
      code: 'NUMBER_TYPE_MAX',
    });
    expect(fails(upload({ min_values: 3, max_values: 2 }))).toEqual({
      path: at('min_values'),
      code: 'COMPONENT_MIN_VALUES_EXCEEDS_MAX',
    });
    expect(fails(upload({ min_values: 0 }))).toEqual({
      path: at('min_values'),
      code: 'COMPONENT_MIN_VALUES_REQUIRED',
    });
    expect(fails(upload({ file_types: ['pdf'] }))).toEqual({
      path: at('file_types.0'),
      code: 'FILE_UPLOAD_INVALID_FILE_TYPE',
    });
    expect(fails(upload({ file_types: Array.from({ length: 11 }, () => 'image') }))).toEqual({
      path: at('file_types'),
      code: 'BASE_TYPE_MAX_LENGTH',
    });
    expect(
      validateModal(
        modal(
          upload({ min_values: 0, required: false, file_types: ['audio', 'video', '.tar.gz'] }),
        ),
      ).components[0],
    ).toMatchObject({
      component: {
        min_values: 0,
        max_values: 1,
        required: false,
        file_types: ['audio', 'video', '.tar.gz'],
      },
    });
  });

  it('checks Radio Groups, Checkbox Groups and Checkboxes', () => {
    const at = (field: string) => `data.components.0.component.${field}`;
    expect(fails(label({ type: 21, custom_id: 'r', options: options(1) }))).toEqual({
      path: at('options'),
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(fails(label({ type: 21, custom_id: 'r', options: options(11) }))).toEqual({
      path: at('options'),
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(
      fails(
        label({
          type: 21,
          custom_id: 'r',
          options: options(2).map((o) => ({ ...o, default: true })),
        }),
      ),
    ).toEqual({ path: at('options'), code: 'COMPONENT_TOO_MANY_DEFAULTS' });
    expect(
      fails(
        label({
          type: 21,
          custom_id: 'r',
          options: [...options(2), { label: 'again', value: 'v0' }],
        }),
      ),
    ).toEqual({ path: at('options.2.value'), code: 'COMPONENT_OPTION_VALUE_DUPLICATED' });
    expect(fails(label({ type: 22, custom_id: 'g', options: [] }))).toEqual({
      path: at('options'),
      code: 'BASE_TYPE_BAD_LENGTH',
    });
    expect(
      fails(label({ type: 22, custom_id: 'g', options: options(2), min_values: 3, max_values: 3 })),
    ).toEqual({
      path: at('min_values'),
      code: 'COMPONENT_MIN_VALUES_EXCEEDS_OPTIONS',
    });
    expect(fails(label({ type: 22, custom_id: 'g', options: options(2), max_values: 0 }))).toEqual({
      path: at('max_values'),
      code: 'NUMBER_TYPE_MIN',
    });
    expect(fails(label({ type: 22, custom_id: 'g', options: options(2), min_values: 0 }))).toEqual({
      path: at('min_values'),
      code: 'COMPONENT_MIN_VALUES_REQUIRED',
    });
    expect(
      validateModal(modal(label({ type: 22, custom_id: 'g', options: options(3) }))).components[0],
    ).toMatchObject({ component: { min_values: 1, max_values: 3, required: true } });
    expect(fails(label({ type: 23 }))).toEqual({
      path: at('custom_id'),
      code: 'BASE_TYPE_REQUIRED',
    });
    expect(fails(label({ type: 23, custom_id: 'c', default: 'yes' }))).toEqual({
      path: at('default'),
      code: 'BOOLEAN_TYPE_COERCE',
    });
    expect(
      validateModal(modal(label({ type: 23, custom_id: 'c', default: true }))).components[0],
    ).toEqual({
      type: 18,
      id: 1,
      label: 'Question',
      component: { type: 23, id: 2, custom_id: 'c', default: true },
    });
  });
});
