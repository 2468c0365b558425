import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CONFIG_FLAGS } from '../config.js';
import { UsageError } from '../cliFlags.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * The options a usage line declares: `--name VALUE` takes a value, a bare `--name` (`[--verified]`,
 * `--password-stdin)`) is a switch, and `--no-name` is the switch `name` written negated. The
 * usage line is the one declaration, so the help a command prints and what it accepts agree.
 */
export function optionsOfUsage(usage: string): Options {
  const options: Options = {};
  const tokens = usage.split(/\s+/);
  tokens.forEach((token, i) => {
    const match = /^[[(]*--([a-z][a-z0-9-]*)([\])|]*)$/.exec(token);
    if (match === null) return;
    const [, name = '', closing = ''] = match;
    const next = tokens[i + 1];
    const takesValue = closing === '' && next !== undefined && !/^[[(|-]/.test(next);
    if (takesValue) options[name] = { type: 'string' };
    else options[name.replace(/^no-/, '')] = { type: 'boolean' };
  });
  return options;
}

/** The flags every command reads: the settings (config.ts) and `--help`. */
function commonOptions(): Options {
  const options: Options = { help: { type: 'boolean' } };
  for (const flag of CONFIG_FLAGS) options[flag.name] = { type: 'string' };
  return options;
}

/** Writes an on/off setting's bare `--demo` as `--demo=on` and `--no-demo` as `--demo=off`. */
function expandSwitches(argv: readonly string[]): string[] {
  const switches = new Set(CONFIG_FLAGS.filter((f) => f.isSwitch).map((f) => f.name));
  return argv.map((arg, i) => {
    if (arg.startsWith('--no-') && switches.has(arg.slice(5))) return `--${arg.slice(5)}=off`;
    const next = argv[i + 1];
    const bare = next === undefined || next.startsWith('-');
    if (arg.startsWith('--') && switches.has(arg.slice(2)) && bare) return `${arg}=on`;
    return arg;
  });
}

/** How many single-letter edits (insert, delete, replace, swap two neighbours) make `a` into `b`. */
export function editDistance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number) => d[i]?.[j] ?? Infinity;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, at(i - 2, j - 2) + 1);
      }
      const row = d[i];
      if (row !== undefined) row[j] = best;
    }
  }
  return at(a.length, b.length);
}

/** The known name closest to a mistyped one, when it is close enough to be the one meant. */
export function nearestName(typed: string, known: readonly string[]): string | undefined {
  let best: { name: string; distance: number } | undefined;
  for (const name of known) {
    const distance = editDistance(typed, name);
    if (best === undefined || distance < best.distance) best = { name, distance };
  }
  const allowed = Math.max(2, Math.floor(typed.length / 3));
  return best !== undefined && best.distance <= allowed ? best.name : undefined;
}

/** The first line of a parseArgs error, without its generic advice. */
function firstLine(err: Error): string {
  const line = err.message.split('\n')[0] ?? err.message;
  return line.replace(/\. This command does not take positional arguments$/, '');
}

/**
 * Parses the arguments after a command's words (`user create`) in strict mode: an unknown flag,
 * a flag without its value, a value for a switch, or a stray word is a {@link UsageError} of one
 * line that names it and where to look. Returns the flags as the commands read them: values as
 * given, switches as `'true'`/`'false'`.
 */
export function parseCommandArgs(
  command: string,
  argv: readonly string[],
  usage = '',
): Map<string, string> {
  let values: Record<string, string | boolean | (string | boolean)[] | undefined>;
  try {
    ({ values } = parseArgs({
      args: expandSwitches(argv),
      options: { ...commonOptions(), ...optionsOfUsage(usage) },
      strict: true,
      allowPositionals: false,
      // Only where the usage line writes a negated switch (`[--no-show-activity]`).
      allowNegative: /(^|[\s[(])--no-/.test(usage),
    }));
  } catch (err) {
    if (!(err instanceof Error) || !('code' in err)) throw err;
    if (typeof err.code !== 'string' || !err.code.startsWith('ERR_PARSE_ARGS_')) throw err;
    const unknown = /^Unknown option '--([^'=]+)'/.exec(err.message)?.[1];
    const known = Object.keys({ ...commonOptions(), ...optionsOfUsage(usage) });
    const nearest = unknown === undefined ? undefined : nearestName(unknown, known);
    const hint = nearest === undefined ? '' : ` Did you mean --${nearest}?`;
    throw new UsageError(
      `${firstLine(err)} (guildhall ${command}).${hint} Run \`guildhall ${command} --help\` for its options.`,
    );
  }
  const flags = new Map<string, string>();
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' || typeof value === 'boolean') flags.set(name, String(value));
  }
  return flags;
}
