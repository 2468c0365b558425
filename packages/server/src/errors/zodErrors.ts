import {
  FIELD_ERROR_CODES,
  type FieldError,
  type FieldErrorCode,
  type FieldErrorTree,
} from '@guildhall/protocol';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

function describeInput(input: unknown): string {
  if (typeof input === 'string') return input.length > 50 ? `${input.slice(0, 50)}…` : input;
  // JSON.stringify gives undefined for these, whatever its type says.
  if (input === undefined || typeof input === 'function' || typeof input === 'symbol') {
    return String(input);
  }
  try {
    return JSON.stringify(input);
  } catch {
    // Cycles and BigInts cannot be shown as JSON.
    return typeof input === 'bigint' ? input.toString() : 'value';
  }
}

/** A leaf from the catalogue's template, with `{name}` placeholders filled in. */
export function fieldError(code: FieldErrorCode, values: Record<string, unknown> = {}): FieldError {
  const message = FIELD_ERROR_CODES[code].replace(/\{(\w+)\}/g, (placeholder, name: string) =>
    name in values ? describeInput(values[name]) : placeholder,
  );
  return { code, message };
}

const NUMERIC_ORIGINS = new Set(['number', 'int', 'bigint']);

function typeError(expected: string, input: unknown): FieldError {
  switch (expected) {
    case 'string':
      return fieldError('STRING_TYPE_CONVERT', { value: input });
    case 'number':
    case 'int':
    case 'bigint':
      return fieldError('NUMBER_TYPE_COERCE', { value: input, type: 'int' });
    case 'boolean':
      return fieldError('BOOLEAN_TYPE_COERCE', { value: input });
    case 'object':
      return fieldError('DICT_TYPE_CONVERT');
    case 'array':
      return fieldError('LIST_TYPE_CONVERT');
    default:
      return { code: 'BASE_TYPE_INVALID', message: `Expected ${expected}.` };
  }
}

/** The platform's leaf code and message for one zod issue. */
export function fieldErrorOf(issue: Issue): FieldError {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? fieldError('BASE_TYPE_REQUIRED')
        : typeError(issue.expected, issue.input);
    case 'too_small':
      return NUMERIC_ORIGINS.has(issue.origin)
        ? fieldError('NUMBER_TYPE_MIN', { min: issue.minimum })
        : fieldError('BASE_TYPE_MIN_LENGTH', { min: issue.minimum });
    case 'too_big':
      return NUMERIC_ORIGINS.has(issue.origin)
        ? fieldError('NUMBER_TYPE_MAX', { max: issue.maximum })
        : fieldError('BASE_TYPE_MAX_LENGTH', { max: issue.maximum });
    case 'invalid_value':
      return fieldError('BASE_TYPE_CHOICES', {
        choices: `{${issue.values.map(describeInput).join(', ')}}`,
      });
    case 'invalid_format':
      if (issue.format === 'email') return fieldError('EMAIL_TYPE_INVALID_EMAIL');
      if (issue.format === 'url') return fieldError('URL_TYPE_INVALID_URL');
      if (issue.format === 'regex') return { code: 'STRING_TYPE_REGEX', message: issue.message };
      return { code: 'BASE_TYPE_INVALID', message: issue.message };
    case 'custom': {
      const code = (issue.params as { code?: unknown } | undefined)?.code;
      return {
        code: typeof code === 'string' ? code : 'BASE_TYPE_INVALID',
        message: issue.message,
      };
    }
    case 'invalid_union':
    case 'invalid_key':
    case 'invalid_element':
    case 'not_multiple_of':
    case 'unrecognized_keys':
      return { code: 'BASE_TYPE_INVALID', message: issue.message };
  }
}

/** Folds zod issues into the platform's nested `errors` tree (array indexes as string keys). */
export function fieldErrorTree(
  issues: readonly Issue[],
  prefix: (string | number)[] = [],
): FieldErrorTree {
  const root: FieldErrorTree = {};
  for (const issue of issues) {
    let node = root;
    for (const key of [...prefix, ...issue.path]) {
      const name = String(key);
      const child = node[name];
      if (child === undefined || Array.isArray(child)) {
        const next: FieldErrorTree = {};
        node[name] = next;
        node = next;
      } else {
        node = child;
      }
    }
    const leaf = node['_errors'];
    const error = fieldErrorOf(issue);
    if (Array.isArray(leaf)) leaf.push(error);
    else node['_errors'] = [error];
  }
  return root;
}
