import type { z } from 'zod';
import { invalidField } from '../../errors/index.js';
import { LOCALES } from '../guilds/index.js';
import { COMMAND_LIMITS as L, CommandType, OptionType } from './limits.js';
import type { OptionInput } from './options.js';

/** A slash command's (and every option's) name: the platform's regex, lowercase where it can be. */
const CHAT_INPUT_NAME = /^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$/u;
/** The channel types an option may restrict to (text-like, voice, threads, forums, media). */
const CHANNEL_TYPES = new Set([0, 1, 2, 3, 4, 5, 10, 11, 12, 13, 14, 15, 16]);
/** ATTACHMENT `file_types` entries: a group or an extension (spec, File Upload; api-facts §14). */
const FILE_TYPE = /^(image|video|audio|\.[a-z0-9]{1,16})$/i;
/** Integers an INTEGER option takes: the platform's ±2^53. */
const MAX_INTEGER = 2 ** 53;
const LOCALE_SET: ReadonlySet<string> = new Set(LOCALES);

/** Where a rule reports: the refinement's context and the path of the value checked. */
interface At {
  ctx: z.RefinementCtx;
  path: (string | number)[];
}

const child = (at: At, ...keys: (string | number)[]): At => ({
  ctx: at.ctx,
  path: [...at.path, ...keys],
});

function fail(at: At, code: string, message: string): void {
  at.ctx.addIssue({ code: 'custom', path: at.path, message, params: { code } });
}

const given = (value: unknown) => value !== undefined && value !== null;

/** Checks a name; `chatInput` for slash command and option names, else a context-menu name. */
function checkName(at: At, name: string, chatInput: boolean) {
  // The length is the schema's to report.
  if (name.length < 1 || name.length > L.maxName) return;
  if (!chatInput) {
    if (name.trim().length === 0)
      fail(at, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
    return;
  }
  if (!CHAT_INPUT_NAME.test(name)) {
    fail(at, 'STRING_TYPE_REGEX', 'String value did not match validation regex.');
  } else if (name !== name.toLowerCase()) {
    fail(at, 'APPLICATION_COMMAND_INVALID_NAME', 'Command name is invalid');
  }
}

/**
 * Localization keys must be locales; with `nameRule`, each value follows the name's own rules
 * (true: a slash name, false: a context-menu name); null for descriptions.
 */
function checkLocalizations(
  at: At,
  map: Record<string, string> | null | undefined,
  nameRule: boolean | null,
) {
  for (const [locale, text] of Object.entries(map ?? {})) {
    if (!LOCALE_SET.has(locale)) fail(child(at, locale), 'LOCALE_KEY_INVALID', 'Invalid locale.');
    else if (nameRule !== null) checkName(child(at, locale), text, nameRule);
  }
}

/** The fields only some option types take, with the types that take them. */
const TYPE_FIELDS: readonly [keyof OptionInput, readonly number[]][] = [
  ['choices', [OptionType.STRING, OptionType.INTEGER, OptionType.NUMBER]],
  ['autocomplete', [OptionType.STRING, OptionType.INTEGER, OptionType.NUMBER]],
  ['min_value', [OptionType.INTEGER, OptionType.NUMBER]],
  ['max_value', [OptionType.INTEGER, OptionType.NUMBER]],
  ['min_length', [OptionType.STRING]],
  ['max_length', [OptionType.STRING]],
  ['channel_types', [OptionType.CHANNEL]],
  ['file_types', [OptionType.ATTACHMENT]],
  ['options', [OptionType.SUB_COMMAND, OptionType.SUB_COMMAND_GROUP]],
];

/** Whether a number fits an option of `type`: an integer within ±2^53, or a finite number. */
function fitsType(type: number, value: number): boolean {
  if (type === OptionType.INTEGER) return Number.isInteger(value) && Math.abs(value) <= MAX_INTEGER;
  return Number.isFinite(value) && Math.abs(value) <= MAX_INTEGER;
}

function checkChoices(at: At, option: OptionInput) {
  const choices = option.choices ?? [];
  if (choices.length > 0 && option.autocomplete === true) {
    fail(
      child(at, 'autocomplete'),
      'APPLICATION_COMMAND_OPTION_CHOICES_AUTOCOMPLETE',
      'Autocomplete cannot be set on an option with choices.',
    );
  }
  choices.forEach((choice, index) => {
    const item = child(at, 'choices', index);
    checkLocalizations(child(item, 'name_localizations'), choice.name_localizations, null);
    const value = choice.value;
    const ok =
      option.type === OptionType.STRING
        ? typeof value === 'string'
        : typeof value === 'number' && fitsType(option.type, value);
    if (!ok)
      fail(child(item, 'value'), 'BASE_TYPE_INVALID', 'Value does not match the option type.');
  });
}

function checkRanges(at: At, option: OptionInput) {
  for (const key of ['min_value', 'max_value'] as const) {
    const value = option[key];
    if (typeof value === 'number' && !fitsType(option.type, value)) {
      fail(child(at, key), 'NUMBER_TYPE_COERCE', 'Value is out of range.');
    }
  }
  const pairs = [
    ['min_value', 'max_value'],
    ['min_length', 'max_length'],
  ] as const;
  for (const [low, high] of pairs) {
    const min = option[low];
    const max = option[high];
    if (typeof min === 'number' && typeof max === 'number' && min > max) {
      fail(child(at, low), 'NUMBER_TYPE_MAX', `Must be less than or equal to ${high}.`);
    }
  }
}

function checkTypeSpecific(at: At, option: OptionInput) {
  for (const [field, types] of TYPE_FIELDS) {
    if (given(option[field]) && !types.includes(option.type)) {
      const message = `Not allowed for option type ${String(option.type)}.`;
      fail(child(at, field), 'BASE_TYPE_INVALID', message);
    }
  }
  checkChoices(at, option);
  checkRanges(at, option);
  (option.channel_types ?? []).forEach((type, index) => {
    if (!CHANNEL_TYPES.has(type)) {
      const message = `Value "${String(type)}" is not a valid enum value.`;
      fail(child(at, 'channel_types', index), 'ENUM_TYPE_COERCE', message);
    }
  });
  (option.file_types ?? []).forEach((type, index) => {
    if (!FILE_TYPE.test(type)) {
      const message = 'Must be image, video, audio or a .extension.';
      fail(child(at, 'file_types', index), 'BASE_TYPE_INVALID', message);
    }
  });
}

const NESTING_MESSAGES = [
  'Subcommands and groups cannot sit beside other options.',
  'A subcommand group holds only subcommands.',
  'A subcommand holds no subcommands or groups.',
] as const;

/**
 * One level of options. `level` 0 is a command's own list (subcommands, groups or values, not
 * mixed); 1 is a group's (subcommands only); 2 a subcommand's (values only). Names are unique
 * per list, and required value options come before optional ones.
 */
function checkOptionList(at: At, options: readonly OptionInput[], level: 0 | 1 | 2) {
  const names = new Set<string>();
  let optionalSeen = false;
  const nesting = options.some(
    (o) => o.type === OptionType.SUB_COMMAND || o.type === OptionType.SUB_COMMAND_GROUP,
  );
  options.forEach((option, index) => {
    const item = child(at, index);
    if (option.type < OptionType.SUB_COMMAND || option.type > OptionType.ATTACHMENT) {
      const message = `Value "${String(option.type)}" is not a valid enum value.`;
      fail(child(item, 'type'), 'ENUM_TYPE_COERCE', message);
      return;
    }
    const isGroup = option.type === OptionType.SUB_COMMAND_GROUP;
    const isSub = option.type === OptionType.SUB_COMMAND;
    const allowed =
      level === 0 ? !nesting || isGroup || isSub : level === 1 ? isSub : !isGroup && !isSub;
    if (!allowed) {
      fail(child(item, 'type'), 'APPLICATION_COMMAND_OPTION_TYPE_INVALID', NESTING_MESSAGES[level]);
    }
    checkName(child(item, 'name'), option.name, true);
    checkLocalizations(child(item, 'name_localizations'), option.name_localizations, true);
    checkLocalizations(
      child(item, 'description_localizations'),
      option.description_localizations,
      null,
    );
    if (names.has(option.name)) {
      const message = 'Option names must be unique.';
      fail(child(item, 'name'), 'APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME', message);
    }
    names.add(option.name);
    if ((isSub || isGroup) && option.required === true) {
      fail(child(item, 'required'), 'BASE_TYPE_INVALID', 'Subcommands cannot be required.');
    }
    if (!isSub && !isGroup) {
      if (option.required === true && optionalSeen) {
        fail(
          child(item, 'required'),
          'APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID',
          'Required options must be placed before non-required options',
        );
      }
      if (option.required !== true) optionalSeen = true;
    }
    checkTypeSpecific(item, option);
    if (isGroup) checkOptionList(child(item, 'options'), option.options ?? [], 1);
    if (isSub) checkOptionList(child(item, 'options'), option.options ?? [], 2);
  });
}

/** The characters of the options' names, descriptions and choices, nested ones too. */
function optionCharacters(options: readonly OptionInput[]): number {
  let total = 0;
  for (const option of options) {
    total += option.name.length + option.description.length;
    for (const choice of option.choices ?? [])
      total += choice.name.length + String(choice.value).length;
    total += optionCharacters(option.options ?? []);
  }
  return total;
}

/**
 * A command's size: its names, descriptions and choices together may not pass 8000 characters
 * (50035 on the command as a whole, at `path`). Checked once the body is valid field by field,
 * so the error is the only one of the command.
 */
export function assertCommandSize(body: CommandShape, path: (string | number)[]): void {
  const size =
    body.name.length + (body.description ?? '').length + optionCharacters(body.options ?? []);
  if (size > L.maxTotalCharacters) {
    const message = `Command exceeds maximum size (${String(L.maxTotalCharacters)})`;
    throw invalidField(path, 'APPLICATION_COMMAND_TOO_LARGE', message);
  }
}

/** What `checkCommand` reads of a command body. */
export interface CommandShape {
  name: string;
  type?: number | null | undefined;
  name_localizations?: Record<string, string> | null | undefined;
  description?: string | null | undefined;
  description_localizations?: Record<string, string> | null | undefined;
  options?: readonly OptionInput[] | null | undefined;
  handler?: number | null | undefined;
}

function checkDescription(root: At, body: CommandShape, contextMenu: boolean) {
  if (contextMenu) {
    if ((body.description ?? '') !== '') {
      fail(child(root, 'description'), 'BASE_TYPE_MAX_LENGTH', 'Must be 0 or fewer in length.');
    }
    if (Object.keys(body.description_localizations ?? {}).length > 0) {
      const message = 'Context menu commands have no description.';
      fail(child(root, 'description_localizations'), 'BASE_TYPE_INVALID', message);
    }
    return;
  }
  // The schema reports one too long; a missing or empty one is this rule's.
  if ((body.description ?? '') === '') {
    const message = `Must be between 1 and ${String(L.maxDescription)} in length.`;
    fail(child(root, 'description'), 'BASE_TYPE_BAD_LENGTH', message);
  }
  checkLocalizations(
    child(root, 'description_localizations'),
    body.description_localizations,
    null,
  );
}

/**
 * The rules of a whole command body beyond its shape: names per type (slash and entry-point
 * names lowercase by the platform's regex, context-menu names free text), descriptions (1–100
 * for slash and entry point, none for context menus), localizations, options (context menus
 * and entry points have none) and `handler` (entry points only, and required there).
 */
export function checkCommand(body: CommandShape, ctx: z.RefinementCtx): void {
  const root: At = { ctx, path: [] };
  const type = body.type ?? CommandType.CHAT_INPUT;
  const contextMenu = type === CommandType.USER || type === CommandType.MESSAGE;
  checkName(child(root, 'name'), body.name, !contextMenu);
  checkLocalizations(child(root, 'name_localizations'), body.name_localizations, !contextMenu);
  checkDescription(root, body, contextMenu);
  const options = body.options ?? [];
  if (type === CommandType.CHAT_INPUT) {
    checkOptionList(child(root, 'options'), options, 0);
  } else if (options.length > 0) {
    fail(child(root, 'options'), 'BASE_TYPE_INVALID', 'Only slash commands have options.');
  }
  if (type === CommandType.PRIMARY_ENTRY_POINT) {
    if (!given(body.handler))
      fail(child(root, 'handler'), 'BASE_TYPE_REQUIRED', 'This field is required');
  } else if (given(body.handler)) {
    fail(child(root, 'handler'), 'BASE_TYPE_INVALID', 'Only entry point commands have a handler.');
  }
}
