/**
 * The checks of the arguments the messages, lobbies and guilds areas share: ids, message content
 * and metadata maps.
 *
 * @module
 */
import { validationError } from './errors.js';

/** A message's or lobby's metadata: at most 25 keys, values of at most 1024 characters. */
export const METADATA_LIMITS = { maxKeys: 25, maxValue: 1024 } as const;

/** Checks a snowflake argument (a user, message, lobby, channel or guild id). */
export function requireSnowflake(operation: string, what: string, value: unknown): string {
  if (typeof value !== 'string' || !/^\d{1,20}$/.test(value)) {
    throw validationError(`${operation}: ${what} must be an id (a string of digits).`);
  }
  return value;
}

/** Checks message content: a non-blank string of at most `max` characters. */
export function requireContent(operation: string, content: unknown, max: number): string {
  if (typeof content !== 'string' || content.trim() === '') {
    throw validationError(`${operation}: the content is empty; send some text.`);
  }
  if (content.length > max) {
    throw validationError(
      `${operation}: the content has ${content.length} characters; the most is ${max}.`,
    );
  }
  return content;
}

/** Checks a metadata map: string keys and values, ≤25 keys, values ≤1024 characters. */
export function requireMetadata(
  operation: string,
  what: string,
  metadata: unknown,
): Record<string, string> {
  if (typeof metadata !== 'object' || metadata === null || Array.isArray(metadata)) {
    throw validationError(`${operation}: ${what} must be an object of strings.`);
  }
  const entries = Object.entries(metadata as Record<string, unknown>);
  if (entries.length > METADATA_LIMITS.maxKeys) {
    throw validationError(
      `${operation}: ${what} has ${entries.length} keys; the most is ${METADATA_LIMITS.maxKeys}.`,
    );
  }
  for (const [key, value] of entries) {
    if (key === '') throw validationError(`${operation}: ${what} has an empty key.`);
    if (typeof value !== 'string') {
      throw validationError(`${operation}: ${what}["${key}"] must be a string.`);
    }
    if (value.length > METADATA_LIMITS.maxValue) {
      throw validationError(
        `${operation}: ${what}["${key}"] is longer than ${METADATA_LIMITS.maxValue} characters.`,
      );
    }
  }
  return Object.fromEntries(entries) as Record<string, string>;
}
