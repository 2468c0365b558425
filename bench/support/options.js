/**
 * The command-line side every bench shares: integer flags with their range, and reading the
 * options with `--help` and a usage message on a mistake.
 */
import console from 'node:console';
import process from 'node:process';

/** Reads `--<name>` of parseArgs' `values` as an integer in `[min, max]`, or throws saying so. */
export function integerReader(values) {
  return (name, [min, max]) => {
    const raw = values[name];
    const value = Number(raw);
    if (!/^\d+$/.test(raw) || value < min || value > max)
      throw new Error(`--${name} takes integers from ${min} to ${max}; got "${raw}".`);
    return value;
  };
}

/**
 * The options `parseOptions` reads from the command line; null when the bench should stop at
 * once with `exitCode` (after --help, or a usage mistake with the message and the usage).
 */
export function readOptions(parseOptions, usage) {
  let options;
  try {
    options = parseOptions(process.argv.slice(2));
  } catch (err) {
    console.error(`${err.message}\n\n${usage}`);
    return { options: null, exitCode: 2 };
  }
  if (options.help) {
    console.log(usage);
    return { options: null, exitCode: 0 };
  }
  return { options, exitCode: 0 };
}
