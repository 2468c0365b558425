/**
 * @module control/worldSteps: what every part of loading a world shares: acting as a person or a
 * bot (a principal, as the authenticator would make), the seed of each thing made, and turning a
 * refusal of the API into a {@link WorldError} at the path of what the world asked for.
 */
import type { FieldErrorTree } from '@guildhall/protocol';
import { ZodError, type z } from 'zod';
import type { App } from '../appTypes.js';
import { hashSecret } from '../domain/credentials.js';
import { seededSource } from '../domain/seeded.js';
import { ApiError } from '../errors/index.js';
import type { Principal } from '../http/authenticator.js';
import { parseInput } from '../http/validate.js';
import { WorldError, worldPath, type WorldIssue } from './worldFile.js';

/** The running load: the app, its seed, and who acts. */
export interface WorldContext {
  app: App;
  seed: string;
}

/** Runs `work` with ids and credentials drawn from the world's seed and `label`. */
export function seeded<T>(context: WorldContext, label: string, work: () => Promise<T>) {
  return context.app.withSeed(seededSource(context.seed, label), work);
}

/** A person or bot acting with its token, as the authenticator makes it for a request. */
export async function principalOf(
  app: App,
  userId: string,
  token: { kind: 'session' | 'bot'; value: string; applicationId?: string },
): Promise<Principal> {
  const user = await app.storage.users.findById(userId);
  if (user === null) throw new Error(`the world's user ${userId} is gone`);
  return {
    kind: token.kind,
    user,
    applicationId: token.applicationId ?? null,
    scopes: [],
    tokenHash: hashSecret(token.value),
  };
}

function flattenTree(tree: FieldErrorTree, path: (string | number)[]): WorldIssue[] {
  return Object.entries(tree).flatMap(([key, value]) => {
    if (key === '_errors' && Array.isArray(value)) {
      return value.map((error) => ({ path: worldPath(path), message: error.message }));
    }
    if (Array.isArray(value)) return [];
    return flattenTree(value, [...path, /^\d+$/.test(key) ? Number(key) : key]);
  });
}

/** The mistakes an error of the API (or of a body's schema) names, under `path`. */
function issuesOf(err: unknown, path: (string | number)[]): WorldIssue[] | null {
  if (err instanceof ZodError) {
    return err.issues.map((issue) => ({
      path: worldPath([...path, ...(issue.path as (string | number)[])]),
      message: issue.message,
    }));
  }
  if (err instanceof ApiError) {
    const fields = err.errors === undefined ? [] : flattenTree(err.errors, path);
    return fields.length > 0
      ? fields.map((issue) => ({ ...issue, message: `${issue.message} (${err.message})` }))
      : [{ path: worldPath(path), message: `${err.message} (error ${err.code})` }];
  }
  return null;
}

/**
 * Runs one step of the load; a refusal becomes a WorldError naming `path` (the world's place of
 * what was being made) and the API's reason.
 */
export async function step<T>(path: (string | number)[], work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof WorldError) throw err;
    const issues = issuesOf(err, path);
    if (issues === null) throw err;
    throw new WorldError(issues);
  }
}

/** A body checked by the schema its route uses; a mistake names its place in the world. */
export function bodyOf<TSchema extends z.ZodType>(
  schema: TSchema,
  value: unknown,
  path: (string | number)[],
): z.output<TSchema> {
  try {
    return parseInput(schema, value);
  } catch (err) {
    const issues = issuesOf(err, path);
    if (issues === null) throw err;
    throw new WorldError(issues);
  }
}

/** Permission names or a bitset string, as a decimal bitset string (what the API takes). */
export function permissionBits(
  value: readonly string[] | string | undefined,
  bits: Readonly<Record<string, bigint>>,
  path: (string | number)[],
): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  let total = 0n;
  value.forEach((name, index) => {
    const bit = bits[name];
    if (bit === undefined) {
      throw new WorldError([
        { path: worldPath([...path, index]), message: `No permission is named ${name}.` },
      ]);
    }
    total |= bit;
  });
  return total.toString();
}
