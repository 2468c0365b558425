/**
 * Flag parsing for the CLI and config: `--name value`, `--name=value`, bare switches (`true`) and
 * `--no-name` (`false`).
 */
export function parseFlags(argv: readonly string[]): {
  flags: Map<string, string>;
  positional: string[];
} {
  const flags = new Map<string, string>();
  const positional: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--')) {
      positional.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    if (eq > 0) {
      flags.set(arg.slice(2, eq), arg.slice(eq + 1));
      continue;
    }
    if (arg.startsWith('--no-')) {
      flags.set(arg.slice(5), 'false');
      continue;
    }
    const next = argv[i + 1];
    if (next !== undefined && !next.startsWith('--')) {
      flags.set(arg.slice(2), next);
      i++;
    } else flags.set(arg.slice(2), 'true');
  }
  return { flags, positional };
}

/** A usage mistake: the message says what to run instead. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export function requireFlag(flags: Map<string, string>, name: string, usage: string): string {
  const value = flags.get(name);
  if (value === undefined || value === 'true') {
    throw new UsageError(`missing --${name}.\nUsage: ${usage}`);
  }
  return value;
}
