/**
 * Slash commands as the picker shows them and as POST /interactions wants them: each
 * subcommand (and subcommand of a group) is an entry of its own, its value options become
 * fields, and the fields' text becomes the typed `options` tree (docs/interactions.md#invoking).
 */
import {
  ApplicationCommandOptionType,
  ApplicationCommandType,
  type APIApplicationCommand,
  type APIApplicationCommandBasicOption,
  type APIApplicationCommandOption,
} from 'discord-api-types/v10';
import type { CommandIndex } from './commandIndex.js';

/** One thing the picker offers: a command, or one of its subcommands. */
export interface CommandEntry {
  command: APIApplicationCommand;
  /** Subcommand group and subcommand names under the command, outermost first. */
  path: string[];
  /** "name group sub", what the person types after `/`. */
  label: string;
  description: string;
  /** The value options of this entry, required ones first as the API orders them. */
  options: APIApplicationCommandBasicOption[];
  appName: string;
}

/** What a field holds while the person fills it: text, a checkbox, an id, or a file. */
export type FieldValue = string | boolean | File | null;

const isSub = (o: APIApplicationCommandOption) =>
  o.type === ApplicationCommandOptionType.Subcommand ||
  o.type === ApplicationCommandOptionType.SubcommandGroup;

/** The slash-command entries of an index, grouped by app in the index's order. */
export function commandEntries(index: CommandIndex): CommandEntry[] {
  const entries: CommandEntry[] = [];
  for (const app of index.applications) {
    for (const command of index.application_commands) {
      if (command.application_id !== app.id || command.type !== ApplicationCommandType.ChatInput)
        continue;
      const add = (path: string[], description: string, options: APIApplicationCommandOption[]) => {
        entries.push({
          command,
          path,
          label: [command.name, ...path].join(' '),
          description,
          options: options.filter((o): o is APIApplicationCommandBasicOption => !isSub(o)),
          appName: app.name,
        });
      };
      const top = command.options ?? [];
      if (!top.some(isSub)) {
        add([], command.description, top);
        continue;
      }
      for (const option of top) {
        if (option.type === ApplicationCommandOptionType.Subcommand) {
          add([option.name], option.description, option.options ?? []);
        } else if (option.type === ApplicationCommandOptionType.SubcommandGroup) {
          for (const sub of option.options ?? []) {
            add([option.name, sub.name], sub.description, sub.options ?? []);
          }
        }
      }
    }
  }
  return entries;
}

/** The entries matching what follows the `/`: by prefix of any word, names first. */
export function filterEntries(entries: readonly CommandEntry[], typed: string): CommandEntry[] {
  const query = typed.replace(/^\//, '').trim().toLowerCase();
  if (query === '') return [...entries];
  return entries.filter((entry) => {
    const label = entry.label.toLowerCase();
    return label.startsWith(query) || label.split(' ').some((word) => word.startsWith(query));
  });
}

const hasText = (value: FieldValue) =>
  value !== null && value !== '' && !(typeof value === 'string' && value.trim() === '');

/**
 * The message for each field whose value the API would refuse (by option name): required
 * options, lengths, integer and number formats and ranges, choices.
 */
export function validateOptions(
  options: readonly APIApplicationCommandBasicOption[],
  values: Readonly<Record<string, FieldValue>>,
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const option of options) {
    const value = values[option.name] ?? null;
    if (!hasText(value) && option.type !== ApplicationCommandOptionType.Boolean) {
      if (option.required === true) errors[option.name] = 'This option is required.';
      continue;
    }
    if (option.type === ApplicationCommandOptionType.Boolean) {
      if (option.required === true && typeof value !== 'boolean')
        errors[option.name] = 'This option is required.';
      continue;
    }
    if (option.type === ApplicationCommandOptionType.String && typeof value === 'string') {
      const length = value.length;
      if (typeof option.min_length === 'number' && length < option.min_length)
        errors[option.name] = `At least ${option.min_length} characters.`;
      else if (typeof option.max_length === 'number' && length > option.max_length)
        errors[option.name] = `At most ${option.max_length} characters.`;
    }
    if (
      (option.type === ApplicationCommandOptionType.Integer ||
        option.type === ApplicationCommandOptionType.Number) &&
      typeof value === 'string'
    ) {
      const integer = option.type === ApplicationCommandOptionType.Integer;
      const number = Number(value.trim());
      if (integer ? !/^-?\d+$/.test(value.trim()) : !Number.isFinite(number) || value.trim() === '')
        errors[option.name] = integer ? 'Enter a whole number.' : 'Enter a number.';
      else if (typeof option.min_value === 'number' && number < option.min_value)
        errors[option.name] = `At least ${option.min_value}.`;
      else if (typeof option.max_value === 'number' && number > option.max_value)
        errors[option.name] = `At most ${option.max_value}.`;
    }
    if ('choices' in option && option.choices !== undefined && option.choices.length > 0) {
      if (!option.choices.some((choice) => String(choice.value) === textOf(value)))
        errors[option.name] = 'Pick one of the choices.';
    }
  }
  return errors;
}

/** A text field's content ('' for a checkbox, a file or nothing). */
const textOf = (value: FieldValue): string => (typeof value === 'string' ? value : '');

/** A field's value typed as the option wants it on the wire. */
function wireValue(option: APIApplicationCommandBasicOption, value: FieldValue, fileIndex: number) {
  const { type } = option;
  if (type === ApplicationCommandOptionType.Integer || type === ApplicationCommandOptionType.Number)
    return Number(textOf(value).trim());
  if (type === ApplicationCommandOptionType.Boolean) return value === true;
  // An upload's reference `n` (files[n]); the server swaps in the attachment id.
  if (type === ApplicationCommandOptionType.Attachment) return String(fileIndex);
  return textOf(value);
}

export interface BuiltCommandData {
  data: Record<string, unknown>;
  files: File[];
}

/**
 * The `data` of an APPLICATION_COMMAND (or, with `focused`, an AUTOCOMPLETE) for an entry and
 * its fields. Empty fields are left out; the focused option is sent as typed, as a string.
 */
export function buildCommandData(
  entry: CommandEntry,
  values: Readonly<Record<string, FieldValue>>,
  focused?: string,
): BuiltCommandData {
  const files: File[] = [];
  const attachments: { id: string; filename: string }[] = [];
  const leaf: Record<string, unknown>[] = [];
  for (const option of entry.options) {
    const value = values[option.name] ?? null;
    if (option.name === focused) {
      leaf.push({
        type: option.type,
        name: option.name,
        value: typeof value === 'string' ? value : '',
        focused: true,
      });
      continue;
    }
    if (
      option.type === ApplicationCommandOptionType.Boolean
        ? typeof value !== 'boolean'
        : !hasText(value)
    )
      continue;
    // Autocomplete may carry options the person has not finished: only valid ones are sent.
    if (focused !== undefined && validateOptions([option], values)[option.name] !== undefined)
      continue;
    if (option.type === ApplicationCommandOptionType.Attachment) {
      if (!(value instanceof File)) continue;
      attachments.push({ id: String(files.length), filename: value.name });
      files.push(value);
    }
    leaf.push({
      type: option.type,
      name: option.name,
      value: wireValue(option, value, files.length - 1),
    });
  }
  let options: Record<string, unknown>[] = leaf;
  const [first, second] = entry.path;
  if (second !== undefined && first !== undefined) {
    options = [
      {
        type: ApplicationCommandOptionType.SubcommandGroup,
        name: first,
        options: [{ type: ApplicationCommandOptionType.Subcommand, name: second, options: leaf }],
      },
    ];
  } else if (first !== undefined) {
    options = [{ type: ApplicationCommandOptionType.Subcommand, name: first, options: leaf }];
  }
  const { command } = entry;
  return {
    data: {
      id: command.id,
      name: command.name,
      type: command.type,
      ...(command.guild_id === undefined ? {} : { guild_id: command.guild_id }),
      ...(options.length === 0 ? {} : { options }),
      ...(attachments.length === 0 ? {} : { attachments }),
    },
    files,
  };
}
