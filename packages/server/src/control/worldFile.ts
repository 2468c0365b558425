/**
 * @module control/worldFile: reading a world from JSON or YAML and checking it against the world
 * schema, with errors that name where in the file the mistake is.
 */
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import { WorldFileSchema, type ParsedWorld } from './worldSchema.js';

/** One mistake in a world: where (`guilds.main.channels.general.type`) and what. */
export interface WorldIssue {
  path: string;
  message: string;
}

/** A world that cannot load: its message names each mistake's path in the file. */
export class WorldError extends Error {
  override readonly name = 'WorldError';
  readonly issues: readonly WorldIssue[];
  constructor(issues: readonly WorldIssue[], source?: string) {
    super(
      `${source === undefined ? 'not a valid world' : `${source} is not a valid world`}: ${issues
        .map((issue) => `${issue.path === '' ? '(top)' : issue.path}: ${issue.message}`)
        .join('; ')}`,
    );
    this.issues = issues;
  }
}

/** A path as a person reads it: `guilds.main.channels[0].name`. */
export function worldPath(path: readonly PropertyKey[]): string {
  return path
    .map((key, i) =>
      typeof key === 'number' ? `[${String(key)}]` : `${i === 0 ? '' : '.'}${String(key)}`,
    )
    .join('');
}

function issuesOf(issues: readonly z.core.$ZodIssue[]): WorldIssue[] {
  return issues.flatMap((issue) => {
    // A union's branches each failed: report the branch that got furthest, not all of them.
    if (issue.code === 'invalid_union' && issue.errors.length > 0) {
      const deepest = issue.errors.reduce((a, b) =>
        Math.max(...b.map((i) => i.path.length), 0) > Math.max(...a.map((i) => i.path.length), 0)
          ? b
          : a,
      );
      return issuesOf(deepest.map((inner) => ({ ...inner, path: [...issue.path, ...inner.path] })));
    }
    // A bad name (a record's key): the name's own rule says what is wrong with it.
    const message =
      issue.code === 'invalid_key'
        ? issue.issues.map((inner) => inner.message).join('; ')
        : issue.message;
    return [{ path: worldPath(issue.path), message }];
  });
}

/**
 * Checks a world (an object read from JSON or YAML) against the world schema.
 * @throws WorldError naming the path of each mistake.
 */
export function parseWorld(input: unknown, source?: string): ParsedWorld {
  const parsed = WorldFileSchema.safeParse(input);
  if (!parsed.success) throw new WorldError(issuesOf(parsed.error.issues), source);
  return parsed.data;
}

/**
 * Reads a world file: `.yaml`/`.yml` as YAML, anything else as JSON.
 * @throws WorldError for a file that does not parse or is not a valid world.
 */
export async function readWorldFile(path: string): Promise<ParsedWorld> {
  const text = await readFile(path, 'utf8');
  let value: unknown;
  try {
    if (/\.ya?ml$/i.test(path)) {
      const { parse } = (await import('yaml')).default;
      value = parse(text);
    } else {
      value = JSON.parse(text);
    }
  } catch (err) {
    const reason = err instanceof Error ? err.message.split('\n')[0] : String(err);
    throw new WorldError([{ path: '', message: `does not parse: ${reason ?? ''}` }], path);
  }
  return parseWorld(value, path);
}
