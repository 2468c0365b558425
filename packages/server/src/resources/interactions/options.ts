/**
 * A command's submitted options checked against the command's option definitions: names and
 * types, required options, subcommands, string lengths (multiline allowed), integer and number
 * ranges, choices, and exactly one `focused` option in autocomplete. The ids an option names
 * (users, roles, channels, mentionables, attachments) are collected with their paths so the
 * caller can check they exist and resolve them (resolved.ts). Failures are 50035 at the option's
 * path under `data.options`.
 */
import { isSnowflake } from '@guildhall/protocol';
import { invalidField } from '../../errors/index.js';
import { OptionType } from '../commands/index.js';
import type { SubmittedOption } from './schemas.js';

/** A command's option definition, as the command's wire object holds it. */
export interface CommandOptionSpec {
  type: number;
  name: string;
  required?: boolean;
  choices?: readonly { name: string; value: string | number }[];
  options?: readonly CommandOptionSpec[];
  channel_types?: readonly number[];
  min_value?: number;
  max_value?: number;
  min_length?: number;
  max_length?: number;
  autocomplete?: boolean;
}

/** The longest string option value. */
const MAX_STRING_VALUE = 6000;
/** Integers are within ±2^53. */
const MAX_SAFE = Number.MAX_SAFE_INTEGER;

/** An id an option names, where it was named, and what kind of thing it must be. */
export interface OptionReference {
  kind: 'user' | 'role' | 'channel' | 'mentionable' | 'attachment';
  id: string;
  path: (string | number)[];
  /** For a channel option: the channel types it accepts (empty: any). */
  channelTypes: readonly number[];
}

/** The options as the app receives them, and the ids they name. */
export interface CheckedOptions {
  options: SubmittedOption[];
  references: OptionReference[];
  /** The focused option (autocomplete), or null. */
  focused: SubmittedOption | null;
}

const REFERENCE_KINDS: Readonly<Record<number, OptionReference['kind']>> = {
  [OptionType.USER]: 'user',
  [OptionType.CHANNEL]: 'channel',
  [OptionType.ROLE]: 'role',
  [OptionType.MENTIONABLE]: 'mentionable',
  [OptionType.ATTACHMENT]: 'attachment',
};

const isSubcommand = (type: number) =>
  type === OptionType.SUB_COMMAND || type === OptionType.SUB_COMMAND_GROUP;

interface Walk {
  autocomplete: boolean;
  references: OptionReference[];
  focused: SubmittedOption | null;
}

function fail(path: (string | number)[], code: string, message: string): never {
  throw invalidField(path, code, message);
}

function checkChoices(
  spec: CommandOptionSpec,
  value: string | number,
  path: (string | number)[],
): void {
  if (spec.choices === undefined || spec.choices.length === 0) return;
  if (!spec.choices.some((choice) => choice.value === value)) {
    fail(path, 'BASE_TYPE_CHOICES', "Value must be one of the option's choices.");
  }
}

function checkRange(spec: CommandOptionSpec, value: number, path: (string | number)[]): void {
  if (spec.min_value !== undefined && value < spec.min_value) {
    fail(
      path,
      'NUMBER_TYPE_MIN',
      `Value should be greater than or equal to ${String(spec.min_value)}.`,
    );
  }
  if (spec.max_value !== undefined && value > spec.max_value) {
    fail(
      path,
      'NUMBER_TYPE_MAX',
      `Value should be less than or equal to ${String(spec.max_value)}.`,
    );
  }
}

/** Checks one value option; returns it as the app receives it. */
function checkValue(
  spec: CommandOptionSpec,
  option: SubmittedOption,
  { path, walk }: { path: (string | number)[]; walk: Walk },
): SubmittedOption {
  const valuePath = [...path, 'value'];
  const { value } = option;
  const out: SubmittedOption = { name: spec.name, type: spec.type, value };
  if (option.focused === true) {
    // The value being typed: any text, checked once the command is sent.
    if (!walk.autocomplete)
      fail([...path, 'focused'], 'BASE_TYPE_INVALID', 'Only autocomplete has a focused option.');
    if (spec.autocomplete !== true) {
      fail(
        [...path, 'focused'],
        'APPLICATION_COMMAND_AUTOCOMPLETE_DISABLED',
        'This option has no autocomplete.',
      );
    }
    if (walk.focused !== null)
      fail([...path, 'focused'], 'BASE_TYPE_INVALID', 'Only one option may be focused.');
    if (typeof value !== 'string' && typeof value !== 'number') {
      fail(valuePath, 'BASE_TYPE_STRING', 'Must be a string.');
    }
    const focused = { ...out, value: String(value), focused: true };
    walk.focused = focused;
    return focused;
  }
  switch (spec.type) {
    case OptionType.STRING: {
      if (typeof value !== 'string') fail(valuePath, 'BASE_TYPE_STRING', 'Must be a string.');
      const min = spec.min_length ?? 0;
      const max = Math.min(spec.max_length ?? MAX_STRING_VALUE, MAX_STRING_VALUE);
      if (value.length < min || value.length > max) {
        fail(
          valuePath,
          'BASE_TYPE_BAD_LENGTH',
          `Must be between ${String(min)} and ${String(max)} in length.`,
        );
      }
      checkChoices(spec, value, valuePath);
      return out;
    }
    case OptionType.INTEGER: {
      if (typeof value !== 'number' || !Number.isInteger(value) || Math.abs(value) > MAX_SAFE) {
        fail(valuePath, 'NUMBER_TYPE_COERCE', 'Value is not int.');
      }
      checkRange(spec, value, valuePath);
      checkChoices(spec, value, valuePath);
      return out;
    }
    case OptionType.NUMBER: {
      if (typeof value !== 'number' || !Number.isFinite(value)) {
        fail(valuePath, 'NUMBER_TYPE_COERCE', 'Value is not a number.');
      }
      checkRange(spec, value, valuePath);
      checkChoices(spec, value, valuePath);
      return out;
    }
    case OptionType.BOOLEAN:
      if (typeof value !== 'boolean')
        fail(valuePath, 'BASE_TYPE_BOOLEAN', 'Must be either true or false.');
      return out;
    default: {
      const kind = REFERENCE_KINDS[spec.type];
      if (kind === undefined) fail(path, 'BASE_TYPE_INVALID', 'Unknown option type.');
      const id = typeof value === 'number' ? String(value) : value;
      if (typeof id !== 'string' || !isSnowflake(id))
        fail(valuePath, 'NUMBER_TYPE_COERCE', 'Value is not snowflake.');
      walk.references.push({ kind, id, path: valuePath, channelTypes: spec.channel_types ?? [] });
      return { ...out, value: id };
    }
  }
}

/** Checks a list of submitted options against the definitions at one level. */
function checkLevel(
  specs: readonly CommandOptionSpec[],
  submitted: readonly SubmittedOption[],
  { path, walk }: { path: (string | number)[]; walk: Walk },
): SubmittedOption[] {
  const subcommands = specs.filter((spec) => isSubcommand(spec.type));
  if (subcommands.length > 0) {
    const [chosen, ...rest] = submitted;
    if (chosen === undefined || rest.length > 0) {
      fail(
        path,
        'APPLICATION_COMMAND_SUBCOMMAND_REQUIRED',
        'Exactly one subcommand must be chosen.',
      );
    }
    const spec = subcommands.find((s) => s.name === chosen.name);
    if (spec?.type !== chosen.type) {
      fail([...path, 0, 'name'], 'APPLICATION_COMMAND_OPTION_UNKNOWN', 'Unknown subcommand.');
    }
    return [
      {
        name: spec.name,
        type: spec.type,
        options: checkLevel(spec.options ?? [], chosen.options ?? [], {
          path: [...path, 0, 'options'],
          walk,
        }),
      },
    ];
  }
  const seen = new Set<string>();
  const out = submitted.map((option, index) => {
    const at = [...path, index];
    const spec = specs.find((s) => s.name === option.name);
    if (spec === undefined)
      fail([...at, 'name'], 'APPLICATION_COMMAND_OPTION_UNKNOWN', 'Unknown option.');
    if (seen.has(spec.name))
      fail([...at, 'name'], 'APPLICATION_COMMAND_OPTION_DUPLICATE', 'Option given twice.');
    seen.add(spec.name);
    if (option.type !== spec.type) {
      fail(
        [...at, 'type'],
        'APPLICATION_COMMAND_OPTION_TYPE_INVALID',
        'Option type does not match the command.',
      );
    }
    if (option.options !== undefined && option.options.length > 0) {
      fail([...at, 'options'], 'BASE_TYPE_INVALID', 'Only subcommands have options.');
    }
    return checkValue(spec, option, { path: at, walk });
  });
  // A command being typed (autocomplete) may lack what it will need once sent.
  if (!walk.autocomplete) {
    for (const spec of specs) {
      if (spec.required === true && !seen.has(spec.name)) {
        fail(path, 'APPLICATION_COMMAND_OPTION_REQUIRED', `The option "${spec.name}" is required.`);
      }
    }
  }
  return out;
}

/**
 * Checks `submitted` against the command's options (`specs`); autocomplete needs exactly one
 * focused option, a command none.
 */
export function checkCommandOptions(
  specs: readonly CommandOptionSpec[],
  submitted: readonly SubmittedOption[],
  autocomplete: boolean,
): CheckedOptions {
  const walk: Walk = { autocomplete, references: [], focused: null };
  const path = ['data', 'options'];
  const options = checkLevel(specs, submitted, { path, walk });
  if (autocomplete && walk.focused === null) {
    fail(path, 'APPLICATION_COMMAND_AUTOCOMPLETE_FOCUS_REQUIRED', 'One option must be focused.');
  }
  return { options, references: walk.references, focused: walk.focused };
}
