import { ChannelTypes } from '@guildhall/protocol';
import { claimCustomId, startComponent, type BuildContext } from './context.js';
import { fail, failWith, Fields, type Wire } from './fields.js';
import { ButtonStyles, ComponentTypes as T, LIMITS } from './limits.js';

const CHANNEL_TYPES: readonly number[] = Object.values(ChannelTypes);

/** The `default_values` types each auto-populated select accepts. */
const DEFAULT_VALUE_TYPES: Readonly<Record<number, readonly string[]>> = {
  [T.USER_SELECT]: ['user'],
  [T.ROLE_SELECT]: ['role'],
  [T.MENTIONABLE_SELECT]: ['user', 'role'],
  [T.CHANNEL_SELECT]: ['channel'],
};

const LINK_URL = /^(https?|discord):\/\/\S+$/i;

/** Refuses components a plain (non-application) webhook may not send. */
function assertInteractiveAllowed(context: BuildContext, fields: Fields): void {
  if (context.sender === 'webhook') {
    fail(
      fields.path,
      'COMPONENT_INTERACTIVE_NOT_ALLOWED',
      'Webhooks not owned by an application cannot send interactive components.',
    );
  }
}

/** A modal component must not carry `disabled`. */
export function assertNotDisabled(fields: Fields): void {
  if (fields.has('disabled')) {
    fail(fields.at('disabled'), 'MODAL_COMPONENT_DISABLED', 'Modal components cannot be disabled.');
  }
}

/** A partial emoji of a button or option: `name` (unicode or custom name) and/or `id`. */
function emojiWire(parent: Fields): Wire | undefined {
  if (!parent.has('emoji')) return undefined;
  const emoji = parent.object('emoji');
  const id = emoji.snowflake('id');
  const name = emoji.string('name', LIMITS.emojiName);
  const animated = emoji.bool('animated');
  if (id === undefined && (name === undefined || name === '')) {
    failWith(emoji.at('name'), 'BASE_TYPE_REQUIRED');
  }
  return {
    name: name ?? '',
    ...(id === undefined ? {} : { id }),
    ...(animated === undefined ? {} : { animated }),
  };
}

/**
 * A button: PRIMARY–DANGER (1–4) carry a custom_id, LINK (5) a url and PREMIUM (6) an sku_id
 * and nothing else; every other button shows a label or an emoji.
 */
export function buttonWire(context: BuildContext, fields: Fields): Wire {
  const wire = startComponent(context, fields, T.BUTTON);
  const style = fields.choice('style', Object.values(ButtonStyles));
  if (style === undefined) return failWith(fields.at('style'), 'BASE_TYPE_REQUIRED');
  wire['style'] = style;
  const disabled = fields.bool('disabled');
  if (style === ButtonStyles.PREMIUM) {
    assertInteractiveAllowed(context, fields);
    for (const key of ['custom_id', 'label', 'url', 'emoji']) {
      fields.forbid(key, 'Premium buttons cannot have a custom_id, label, url or emoji.');
    }
    wire['sku_id'] =
      fields.snowflake('sku_id') ?? failWith(fields.at('sku_id'), 'BASE_TYPE_REQUIRED');
  } else {
    const label = fields.string('label', LIMITS.buttonLabel);
    const emoji = emojiWire(fields);
    if ((label === undefined || label === '') && emoji === undefined) {
      fail(
        fields.at('label'),
        'BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED',
        'A button needs a label or an emoji.',
      );
    }
    fields.forbid('sku_id', 'Only premium buttons can have an sku_id.');
    if (label !== undefined) wire['label'] = label;
    if (emoji !== undefined) wire['emoji'] = emoji;
    if (style === ButtonStyles.LINK) {
      fields.forbid('custom_id', 'Link buttons cannot have a custom_id.');
      const url = fields.string('url', LIMITS.buttonUrl);
      if (url === undefined) return failWith(fields.at('url'), 'BASE_TYPE_REQUIRED');
      if (!LINK_URL.test(url)) failWith(fields.at('url'), 'URL_TYPE_INVALID_URL');
      wire['url'] = url;
    } else {
      assertInteractiveAllowed(context, fields);
      fields.forbid('url', 'Only link buttons can have a url.');
      wire['custom_id'] = claimCustomId(context, fields);
    }
  }
  if (disabled !== undefined) wire['disabled'] = disabled;
  return wire;
}

/** A string select's options: 1–25, values unique, at most `maxDefaults` of them default. */
function optionsWire(fields: Fields, maxDefaults: number): Wire[] {
  const seen = new Set<string>();
  let defaults = 0;
  const items = fields.array('options', { min: 1, max: LIMITS.selectOptions });
  const options = items.map((item, index) => {
    const option = new Fields(item, fields.at('options').concat(index));
    const label = option.requiredString('label', LIMITS.optionText);
    const value = option.requiredString('value', LIMITS.optionText);
    const description = option.string('description', LIMITS.optionText);
    const emoji = emojiWire(option);
    const isDefault = option.bool('default');
    if (seen.has(value)) {
      fail(
        option.at('value'),
        'SELECT_COMPONENT_OPTION_VALUE_DUPLICATED',
        'Select option values must be unique.',
      );
    }
    seen.add(value);
    if (isDefault === true) defaults += 1;
    return {
      label,
      value,
      ...(description === undefined ? {} : { description }),
      ...(emoji === undefined ? {} : { emoji }),
      ...(isDefault === undefined ? {} : { default: isDefault }),
    };
  });
  if (defaults > maxDefaults) {
    fail(
      fields.at('options'),
      'SELECT_COMPONENT_TOO_MANY_DEFAULTS',
      `At most ${String(maxDefaults)} options may be default.`,
    );
  }
  return options;
}

/** An auto-populated select's `default_values`: at most max_values, of the types it takes. */
function defaultValuesWire(fields: Fields, type: number, max: number): Wire[] | undefined {
  if (!fields.has('default_values')) return undefined;
  const types = DEFAULT_VALUE_TYPES[type] ?? [];
  const items = fields.array('default_values', { min: 0, max });
  return items.map((item, index) => {
    const value = new Fields(item, fields.at('default_values').concat(index));
    const id = value.snowflake('id') ?? failWith(value.at('id'), 'BASE_TYPE_REQUIRED');
    const kind = value.raw['type'];
    if (typeof kind !== 'string' || !types.includes(kind)) {
      return failWith(value.at('type'), 'BASE_TYPE_CHOICES', { choices: `{${types.join(', ')}}` });
    }
    return { type: kind, id };
  });
}

/** A channel select's `channel_types`: known channel types, each once. */
function channelTypesWire(fields: Fields): number[] | undefined {
  if (!fields.has('channel_types')) return undefined;
  const items = fields.array('channel_types', { min: 0, max: CHANNEL_TYPES.length });
  const types = items.map((value, index) => {
    if (typeof value !== 'number' || !CHANNEL_TYPES.includes(value)) {
      return failWith(fields.at('channel_types').concat(index), 'BASE_TYPE_CHOICES', {
        choices: `{${CHANNEL_TYPES.join(', ')}}`,
      });
    }
    return value;
  });
  if (new Set(types).size !== types.length) {
    fail(fields.at('channel_types'), 'BASE_TYPE_INVALID', 'Channel types must be unique.');
  }
  return types;
}

/**
 * A select menu (string 3, user 5, role 6, mentionable 7, channel 8): min_values 0–25
 * (default 1), max_values 1–25 (default 1), placeholder ≤150. In a modal (where the caller
 * refused `disabled`) `required` defaults to true and then min_values must be at least 1.
 */
export function selectWire(context: BuildContext, fields: Fields, type: number): Wire {
  assertInteractiveAllowed(context, fields);
  const wire = startComponent(context, fields, type);
  wire['custom_id'] = claimCustomId(context, fields);
  const placeholder = fields.string('placeholder', LIMITS.placeholder);
  const minValues = fields.int('min_values', { min: 0, max: LIMITS.selectValues }) ?? 1;
  const maxValues = fields.int('max_values', { min: 1, max: LIMITS.selectValues }) ?? 1;
  if (minValues > maxValues) {
    fail(
      fields.at('min_values'),
      'SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX',
      'min_values cannot exceed max_values.',
    );
  }
  const required = context.place === 'modal' ? (fields.bool('required') ?? true) : undefined;
  if (required === true && minValues === 0) {
    fail(
      fields.at('min_values'),
      'SELECT_COMPONENT_MIN_VALUES_REQUIRED',
      'min_values must be at least 1 when the select is required.',
    );
  }
  if (placeholder !== undefined) wire['placeholder'] = placeholder;
  wire['min_values'] = minValues;
  wire['max_values'] = maxValues;
  if (context.place === 'message') {
    const disabled = fields.bool('disabled');
    if (disabled !== undefined) wire['disabled'] = disabled;
  }
  if (required !== undefined) wire['required'] = required;
  if (type === T.STRING_SELECT) {
    const options = optionsWire(fields, maxValues);
    if (minValues > options.length) {
      fail(
        fields.at('min_values'),
        'SELECT_COMPONENT_MIN_VALUES_EXCEEDS_OPTIONS',
        'min_values cannot exceed the number of options.',
      );
    }
    wire['options'] = options;
    return wire;
  }
  const defaults = defaultValuesWire(fields, type, maxValues);
  if (defaults !== undefined) wire['default_values'] = defaults;
  if (type === T.CHANNEL_SELECT) {
    const channelTypes = channelTypesWire(fields);
    if (channelTypes !== undefined) wire['channel_types'] = channelTypes;
  }
  return wire;
}
