import { FIELD_ERROR_CODES, isSnowflake, type FieldErrorCode } from '@guildhall/protocol';
import { charCount } from '../../domain/text.js';
import { invalidField } from '../../errors/index.js';

/** Where a field is in the request body, as the platform's `errors` tree nests it. */
export type Path = readonly (string | number)[];

/** A component object as sent. */
export type Raw = Readonly<Record<string, unknown>>;

/** A normalized wire object (what is stored and sent). */
export type Wire = Record<string, unknown>;

/** An inclusive range of lengths or values. */
export interface Range {
  min: number;
  max: number;
}

/** Throws 50035 with one error at `path`. */
export function fail(path: Path, code: string, message: string): never {
  throw invalidField([...path], code, message);
}

/** Throws 50035 with a leaf of the catalogue, its `{placeholders}` filled from `values`. */
export function failWith(
  path: Path,
  code: FieldErrorCode,
  values: Record<string, string | number> = {},
): never {
  const message = FIELD_ERROR_CODES[code].replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    name in values ? String(values[name]) : placeholder,
  );
  return fail(path, code, message);
}

/** A value as an error message shows it. */
export function shown(value: unknown): string {
  if (typeof value === 'string') return value;
  // JSON.stringify gives undefined for these, whatever its type says.
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') {
    return typeof value;
  }
  return JSON.stringify(value);
}

/** The value as an array of `range.min`..`range.max` items, else 50035. */
export function asArray(value: unknown, path: Path, range: Range): unknown[] {
  if (!Array.isArray(value)) {
    return value == null
      ? failWith(path, 'BASE_TYPE_REQUIRED')
      : failWith(path, 'LIST_TYPE_CONVERT');
  }
  if (value.length < range.min || value.length > range.max) {
    return range.min === 0
      ? failWith(path, 'BASE_TYPE_MAX_LENGTH', { max: range.max })
      : failWith(path, 'BASE_TYPE_BAD_LENGTH', { ...range });
  }
  return value;
}

/**
 * One object of the request (a component, option, media item...) at `path`, read field by
 * field with the platform's errors. A field sent as null counts as absent.
 */
export class Fields {
  readonly raw: Raw;
  readonly path: Path;

  /** The value as an object, else 50035 at `path`. */
  constructor(value: unknown, path: Path) {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      failWith(path, 'MODEL_TYPE_CONVERT');
    }
    this.raw = value as Raw;
    this.path = path;
  }

  /** Where `key` is. */
  at(key: string | number): Path {
    return [...this.path, key];
  }

  /** Whether the field is sent (not missing, not null). */
  has(key: string): boolean {
    return this.raw[key] !== undefined && this.raw[key] !== null;
  }

  /** A required object field. */
  object(key: string): Fields {
    if (!this.has(key)) failWith(this.at(key), 'BASE_TYPE_REQUIRED');
    return new Fields(this.raw[key], this.at(key));
  }

  /** A required array field of `range` items. */
  array(key: string, range: Range): unknown[] {
    return asArray(this.raw[key], this.at(key), range);
  }

  /** An optional string of at most `max` characters (at least `min`). */
  string(key: string, max: number, min = 0): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    const path = this.at(key);
    if (typeof value !== 'string') {
      return failWith(path, 'STRING_TYPE_CONVERT', { value: shown(value) });
    }
    const length = charCount(value);
    if (length > max || length < min) {
      return min === 0
        ? failWith(path, 'BASE_TYPE_MAX_LENGTH', { max })
        : failWith(path, 'BASE_TYPE_BAD_LENGTH', { min, max });
    }
    return value;
  }

  /** A required string of `min`..`max` characters. */
  requiredString(key: string, max: number, min = 1): string {
    return this.string(key, max, min) ?? failWith(this.at(key), 'BASE_TYPE_REQUIRED');
  }

  /** An optional integer within `range`. */
  int(key: string, range: Range): number | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    const path = this.at(key);
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      return failWith(path, 'NUMBER_TYPE_COERCE', { value: shown(value), type: 'int' });
    }
    if (value < range.min) return failWith(path, 'NUMBER_TYPE_MIN', { min: range.min });
    if (value > range.max) return failWith(path, 'NUMBER_TYPE_MAX', { max: range.max });
    return value;
  }

  /** An optional boolean. */
  bool(key: string): boolean | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (typeof value !== 'boolean') {
      return failWith(this.at(key), 'BOOLEAN_TYPE_COERCE', { value: shown(value) });
    }
    return value;
  }

  /** An optional snowflake (a decimal string, or a safe integer). */
  snowflake(key: string): string | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    const text = typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : value;
    if (typeof text !== 'string' || !isSnowflake(text)) {
      return failWith(this.at(key), 'NUMBER_TYPE_COERCE', {
        value: shown(value),
        type: 'snowflake',
      });
    }
    return text;
  }

  /** An optional value of an integer enum (a style, a spacing). */
  choice<T extends number>(key: string, choices: readonly T[]): T | undefined {
    if (!this.has(key)) return undefined;
    const value = this.raw[key];
    if (!choices.includes(value as T)) {
      return failWith(this.at(key), 'BASE_TYPE_CHOICES', { choices: `{${choices.join(', ')}}` });
    }
    return value as T;
  }

  /** Refuses a field this component may not carry (a link button's custom_id, say). */
  forbid(key: string, message: string): void {
    if (this.has(key)) fail(this.at(key), 'COMPONENT_FIELD_NOT_ALLOWED', message);
  }
}
