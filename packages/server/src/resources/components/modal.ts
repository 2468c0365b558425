import {
  assignIds,
  claimCustomId,
  componentType,
  newBuildContext,
  startComponent,
  type BuildContext,
} from './context.js';
import { fail, failWith, Fields, type Wire } from './fields.js';
import { assertNotDisabled, selectWire } from './interactive.js';
import { ComponentTypes as T, FILE_TYPE_GROUPS, LIMITS, TEXT_INPUT_STYLES } from './limits.js';
import { textDisplayWire } from './v2.js';

/**
 * A modal as an app showed it (the MODAL callback's `data`, normalized): what a person's
 * submission is checked against. Plain JSON, stored with the interaction.
 */
export interface ModalRecord {
  custom_id: string;
  title: string;
  /** Labels (18), Text Displays (10) and legacy Action Rows (1) with one Text Input. */
  components: Record<string, unknown>[];
}

/** What a Label wraps in a modal. */
const LABEL_CHILD_TYPES = [
  T.TEXT_INPUT,
  T.STRING_SELECT,
  T.USER_SELECT,
  T.ROLE_SELECT,
  T.MENTIONABLE_SELECT,
  T.CHANNEL_SELECT,
  T.FILE_UPLOAD,
  T.RADIO_GROUP,
  T.CHECKBOX_GROUP,
  T.CHECKBOX,
];

const FILE_EXTENSION = /^\.[A-Za-z0-9][A-Za-z0-9._-]{0,31}$/;

/** A modal component's `required` (default true). */
const requiredOf = (fields: Fields) => fields.bool('required') ?? true;

/**
 * A Text Input: style 1 SHORT or 2 PARAGRAPH, lengths 0–4000 / 1–4000, a pre-filled value and a
 * placeholder. Its own `label` only in a legacy Action Row (a Label names it otherwise).
 */
function textInputWire(context: BuildContext, fields: Fields, inLabel: boolean): Wire {
  const wire = startComponent(context, fields, T.TEXT_INPUT);
  wire['custom_id'] = claimCustomId(context, fields);
  wire['style'] =
    fields.choice('style', TEXT_INPUT_STYLES) ?? failWith(fields.at('style'), 'BASE_TYPE_REQUIRED');
  if (inLabel) {
    fields.forbid('label', 'A Text Input inside a Label cannot have its own label.');
    wire['label'] = null;
  } else {
    wire['label'] = fields.requiredString('label', LIMITS.labelText);
  }
  const minLength = fields.int('min_length', { min: 0, max: LIMITS.textInputLength });
  const maxLength = fields.int('max_length', { min: 1, max: LIMITS.textInputLength });
  if (minLength !== undefined && maxLength !== undefined && minLength > maxLength) {
    fail(
      fields.at('min_length'),
      'TEXT_INPUT_MIN_LENGTH_EXCEEDS_MAX',
      'min_length cannot exceed max_length.',
    );
  }
  const value = fields.string('value', maxLength ?? LIMITS.textInputLength);
  const placeholder = fields.string('placeholder', LIMITS.textInputPlaceholder);
  wire['min_length'] = minLength ?? null;
  wire['max_length'] = maxLength ?? null;
  wire['required'] = requiredOf(fields);
  if (value !== undefined) wire['value'] = value;
  if (placeholder !== undefined) wire['placeholder'] = placeholder;
  return wire;
}

/**
 * The options of a Radio Group (2–10, at most one default) or a Checkbox Group (1–10): value
 * and label 1–100 characters, description ≤100, values unique.
 */
function choiceOptions(fields: Fields, limits: { min: number; maxDefaults: number }): Wire[] {
  const seen = new Set<string>();
  let defaults = 0;
  const items = fields.array('options', { min: limits.min, max: LIMITS.groupOptions });
  const options = items.map((item, index) => {
    const option = new Fields(item, fields.at('options').concat(index));
    const value = option.requiredString('value', LIMITS.optionText);
    const label = option.requiredString('label', LIMITS.optionText);
    const description = option.string('description', LIMITS.optionText);
    const isDefault = option.bool('default');
    if (seen.has(value)) {
      fail(
        option.at('value'),
        'COMPONENT_OPTION_VALUE_DUPLICATED',
        'Option values must be unique.',
      );
    }
    seen.add(value);
    if (isDefault === true) defaults += 1;
    return {
      value,
      label,
      ...(description === undefined ? {} : { description }),
      ...(isDefault === undefined ? {} : { default: isDefault }),
    };
  });
  if (defaults > limits.maxDefaults) {
    fail(
      fields.at('options'),
      'COMPONENT_TOO_MANY_DEFAULTS',
      `At most ${String(limits.maxDefaults)} options may be default.`,
    );
  }
  return options;
}

/** min_values/max_values of a File Upload or Checkbox Group, checked against `required`. */
function valueCounts(
  fields: Fields,
  rule: { required: boolean; defaultMax: number; cap: number },
): { min_values: number; max_values: number } {
  const minValues = fields.int('min_values', { min: 0, max: rule.cap }) ?? 1;
  const maxValues = fields.int('max_values', { min: 1, max: rule.cap }) ?? rule.defaultMax;
  if (minValues > maxValues) {
    fail(
      fields.at('min_values'),
      'COMPONENT_MIN_VALUES_EXCEEDS_MAX',
      'min_values cannot exceed max_values.',
    );
  }
  if (rule.required && minValues === 0) {
    fail(
      fields.at('min_values'),
      'COMPONENT_MIN_VALUES_REQUIRED',
      'min_values must be at least 1 when the component is required.',
    );
  }
  return { min_values: minValues, max_values: maxValues };
}

/** A File Upload: 0–10 files (default 1), `file_types` filters (≤10: a group or `.ext`). */
function fileUploadWire(context: BuildContext, fields: Fields): Wire {
  const wire = startComponent(context, fields, T.FILE_UPLOAD);
  wire['custom_id'] = claimCustomId(context, fields);
  const required = requiredOf(fields);
  const cap = LIMITS.fileUploadValues;
  Object.assign(wire, valueCounts(fields, { required, defaultMax: 1, cap }));
  wire['required'] = required;
  if (fields.has('file_types')) {
    const items = fields.array('file_types', { min: 0, max: LIMITS.fileTypes });
    wire['file_types'] = items.map((value, index) => {
      if (
        typeof value !== 'string' ||
        !(FILE_TYPE_GROUPS.has(value) || FILE_EXTENSION.test(value))
      ) {
        return fail(
          fields.at('file_types').concat(index),
          'FILE_UPLOAD_INVALID_FILE_TYPE',
          'File types are image, video, audio or a dot-prefixed extension.',
        );
      }
      return value;
    });
  }
  return wire;
}

/** A Radio Group: 2–10 options, one chosen; `required` (default true). */
function radioGroupWire(context: BuildContext, fields: Fields): Wire {
  const wire = startComponent(context, fields, T.RADIO_GROUP);
  wire['custom_id'] = claimCustomId(context, fields);
  wire['options'] = choiceOptions(fields, { min: LIMITS.radioOptionsMin, maxDefaults: 1 });
  wire['required'] = requiredOf(fields);
  return wire;
}

/** A Checkbox Group: 1–10 options, min_values 0–10 (default 1), max_values 1–10 (default all). */
function checkboxGroupWire(context: BuildContext, fields: Fields): Wire {
  const wire = startComponent(context, fields, T.CHECKBOX_GROUP);
  wire['custom_id'] = claimCustomId(context, fields);
  const options = choiceOptions(fields, { min: 1, maxDefaults: LIMITS.groupOptions });
  const required = requiredOf(fields);
  const rule = { required, defaultMax: options.length, cap: LIMITS.groupOptions };
  const counts = valueCounts(fields, rule);
  if (counts.min_values > options.length) {
    fail(
      fields.at('min_values'),
      'COMPONENT_MIN_VALUES_EXCEEDS_OPTIONS',
      'min_values cannot exceed the number of options.',
    );
  }
  wire['options'] = options;
  Object.assign(wire, counts);
  wire['required'] = required;
  return wire;
}

/** A Checkbox: a yes/no answer, checked or not by default. */
function checkboxWire(context: BuildContext, fields: Fields): Wire {
  const wire = startComponent(context, fields, T.CHECKBOX);
  wire['custom_id'] = claimCustomId(context, fields);
  const isDefault = fields.bool('default');
  if (isDefault !== undefined) wire['default'] = isDefault;
  return wire;
}

/** The component a Label wraps, by type; none may be disabled. */
function labelChildWire(context: BuildContext, fields: Fields, type: number): Wire {
  assertNotDisabled(fields);
  switch (type) {
    case T.TEXT_INPUT:
      return textInputWire(context, fields, true);
    case T.FILE_UPLOAD:
      return fileUploadWire(context, fields);
    case T.RADIO_GROUP:
      return radioGroupWire(context, fields);
    case T.CHECKBOX_GROUP:
      return checkboxGroupWire(context, fields);
    case T.CHECKBOX:
      return checkboxWire(context, fields);
    default:
      return selectWire(context, fields, type);
  }
}

/** A top-level modal component: a Label, a Text Display, or a legacy row with one Text Input. */
function modalComponentWire(context: BuildContext, fields: Fields): Wire {
  assertNotDisabled(fields);
  const type = componentType(fields, [T.LABEL, T.TEXT_DISPLAY, T.ACTION_ROW]);
  if (type === T.TEXT_DISPLAY) return textDisplayWire(context, fields);
  const wire = startComponent(context, fields, type);
  if (type === T.LABEL) {
    wire['label'] = fields.requiredString('label', LIMITS.labelText);
    const description = fields.string('description', LIMITS.labelDescription);
    if (description !== undefined) wire['description'] = description;
    const child = fields.object('component');
    wire['component'] = labelChildWire(context, child, componentType(child, LABEL_CHILD_TYPES));
    return wire;
  }
  const children = fields.array('components', { min: 1, max: 1 });
  wire['components'] = children.map((item, index) => {
    const child = new Fields(item, fields.at('components').concat(index));
    componentType(child, [T.TEXT_INPUT]);
    assertNotDisabled(child);
    return textInputWire(context, child, false);
  });
  return wire;
}

/**
 * Checks the `data` of a MODAL (9) callback: custom_id 1–100, title 1–45, 1–5 components
 * (Labels, Text Displays, legacy Action Rows with one Text Input); no component disabled.
 * Returns the modal as shown, numbered and with its defaults; throws 50035 (prefix `data`).
 */
export function validateModal(modal: unknown): ModalRecord {
  const fields = new Fields(modal, ['data']);
  const customId = fields.requiredString('custom_id', LIMITS.customId);
  const title = fields.requiredString('title', LIMITS.modalTitle);
  if (title.trim() === '') failWith(fields.at('title'), 'BASE_TYPE_REQUIRED');
  const context = newBuildContext('modal', 'bot');
  const items = fields.array('components', { min: 1, max: LIMITS.modalComponents });
  const components = items.map((item, index) =>
    modalComponentWire(context, new Fields(item, fields.at('components').concat(index))),
  );
  assignIds(context);
  return { custom_id: customId, title, components };
}
