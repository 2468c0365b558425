/**
 * From what a test types to what the client submits: a command named by its path (`'config set'`)
 * and options given as plain values, checked against the command's definition from the channel's
 * command index and sent with the option types the definition names, as the web client's
 * command form does (docs/interactions.md#invoking).
 *
 * @module
 */
import type { FileInput } from './rest.js';

/** A command's option value as a test gives it. */
export type OptionValue = string | number | boolean | { id: string } | FileInput;

/** Options by name. */
export type CommandOptions = Readonly<Record<string, OptionValue>>;

/** A command as the command index lists it. */
export interface IndexedCommand {
  id: string;
  application_id: string;
  type: number;
  name: string;
  options?: DefinedOption[];
}

/** An option of a command's definition. */
export interface DefinedOption {
  type: number;
  name: string;
  required?: boolean;
  options?: DefinedOption[];
}

/** An option as POST /interactions carries it. */
export interface SubmittedOption {
  type: number;
  name: string;
  value?: string | number | boolean;
  focused?: boolean;
  options?: SubmittedOption[];
}

/** Option types (docs/commands.md). */
export const OptionType = {
  SUB_COMMAND: 1,
  SUB_COMMAND_GROUP: 2,
  STRING: 3,
  INTEGER: 4,
  BOOLEAN: 5,
  USER: 6,
  CHANNEL: 7,
  ROLE: 8,
  MENTIONABLE: 9,
  NUMBER: 10,
  ATTACHMENT: 11,
} as const;

const SNOWFLAKE_TYPES = new Set<number>([
  OptionType.USER,
  OptionType.CHANNEL,
  OptionType.ROLE,
  OptionType.MENTIONABLE,
]);

/** What building a submission gives: the options, and the files attachment options upload. */
export interface BuiltOptions {
  options: SubmittedOption[];
  files: FileInput[];
  /** `data.attachments`: `{id: "n", filename}` for `files[n]`. */
  attachments: { id: string; filename: string }[];
}

/**
 * The submitted options of `path` (the command's name, then subcommand group and subcommand)
 * with `values`; `focused` names the option being typed (autocomplete). Throws a TypeError naming
 * the command's options when a value has no option or the wrong type.
 */
export function buildOptions(
  command: IndexedCommand,
  submission: { path: readonly string[]; values: CommandOptions; focused?: string },
): BuiltOptions {
  const { path, values, focused } = submission;
  const built: BuiltOptions = { options: [], files: [], attachments: [] };
  let defined = command.options ?? [];
  let target = built.options;
  for (const name of path) {
    const sub = defined.find(
      (o) =>
        o.name === name &&
        (o.type === OptionType.SUB_COMMAND || o.type === OptionType.SUB_COMMAND_GROUP),
    );
    if (sub === undefined)
      throw new TypeError(`/${command.name} has no subcommand "${name}"; it has ${list(defined)}`);
    const nested: SubmittedOption = { type: sub.type, name: sub.name, options: [] };
    target.push(nested);
    target = nested.options ?? [];
    nested.options = target;
    defined = sub.options ?? [];
  }
  for (const [name, value] of Object.entries(values)) {
    const option = defined.find((o) => o.name === name);
    if (option === undefined)
      throw new TypeError(`/${command.name} has no option "${name}"; it has ${list(defined)}`);
    target.push({
      type: option.type,
      name,
      value: submittedValue(option, value, { command, built, typing: focused === name }),
      ...(focused === name ? { focused: true } : {}),
    });
  }
  return built;
}

function submittedValue(
  option: DefinedOption,
  value: OptionValue,
  context: { command: IndexedCommand; built: BuiltOptions; typing: boolean },
): string | number | boolean {
  const { command, built } = context;
  const wrong = (expected: string) =>
    new TypeError(`/${command.name} option "${option.name}" takes ${expected}`);
  switch (option.type) {
    case OptionType.STRING:
      if (typeof value !== 'string') throw wrong('a string');
      return value;
    case OptionType.INTEGER:
    case OptionType.NUMBER:
      // Autocomplete sends what is typed so far in the focused option, which may be text.
      if (typeof value === 'number' || (context.typing && typeof value === 'string')) return value;
      throw wrong('a number');
    case OptionType.BOOLEAN:
      if (typeof value !== 'boolean') throw wrong('a boolean');
      return value;
    case OptionType.ATTACHMENT: {
      if (typeof value !== 'object' || !('data' in value)) throw wrong('a file ({name, data})');
      const id = String(built.files.length);
      built.files.push(value);
      built.attachments.push({ id, filename: value.name });
      return id;
    }
    default:
      if (SNOWFLAKE_TYPES.has(option.type)) {
        if (typeof value === 'string') return value;
        if (typeof value === 'object' && 'id' in value) return value.id;
        throw wrong('an id (or an object with one)');
      }
      throw wrong(`a value of type ${String(option.type)}, which the kit does not know`);
  }
}

function list(options: readonly DefinedOption[]): string {
  return options.length === 0 ? 'none' : options.map((o) => `"${o.name}"`).join(', ');
}
