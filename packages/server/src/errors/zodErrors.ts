import type { FieldError, FieldErrorTree } from '@guildhall/protocol';
import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

function describeInput(input: unknown): string {
  if (typeof input === 'string') return input.length > 50 ? `${input.slice(0, 50)}…` : input;
  try {
    return JSON.stringify(input) ?? String(input);
  } catch {
    return String(input);
  }
}

const TYPE_ERRORS: Record<string, (input: unknown) => FieldError> = {
  string: (input) => ({
    code: 'BASE_TYPE_STRING',
    message: `Could not interpret "${describeInput(input)}" as string.`,
  }),
  number: (input) => ({ code: 'NUMBER_TYPE_COERCE', message: `Value "${describeInput(input)}" is not int.` }),
  int: (input) => ({ code: 'NUMBER_TYPE_COERCE', message: `Value "${describeInput(input)}" is not int.` }),
  boolean: (input) => ({ code: 'BOOLEAN_TYPE_COERCE', message: `Value "${describeInput(input)}" is not bool.` }),
  object: () => ({ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }),
  array: () => ({ code: 'LIST_TYPE_CONVERT', message: 'Only iterables may be used in a ListType' }),
};

/** The platform's leaf code and message for one zod issue. */
export function fieldErrorOf(issue: Issue): FieldError {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return { code: 'BASE_TYPE_REQUIRED', message: 'This field is required' };
      return (
        TYPE_ERRORS[issue.expected]?.(issue.input) ?? {
          code: 'BASE_TYPE_INVALID',
          message: `Expected ${issue.expected}.`,
        }
      );
    case 'too_small':
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
        return {
          code: 'NUMBER_TYPE_MIN',
          message: `Int value should be greater than or equal to ${String(issue.minimum)}.`,
        };
      }
      return { code: 'BASE_TYPE_MIN_LENGTH', message: `Must be ${String(issue.minimum)} or more in length.` };
    case 'too_big':
      if (issue.origin === 'number' || issue.origin === 'int' || issue.origin === 'bigint') {
        return {
          code: 'NUMBER_TYPE_MAX',
          message: `Int value should be less than or equal to ${String(issue.maximum)}.`,
        };
      }
      return { code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${String(issue.maximum)} or fewer in length.` };
    case 'invalid_value':
      return {
        code: 'BASE_TYPE_CHOICES',
        message: `Value must be one of {${issue.values.map((v) => describeInput(v)).join(', ')}}.`,
      };
    case 'invalid_format':
      if (issue.format === 'email') return { code: 'EMAIL_TYPE_INVALID_EMAIL', message: 'Not a well formed email address.' };
      if (issue.format === 'url') return { code: 'URL_TYPE_INVALID_URL', message: 'Not a well formed URL.' };
      return { code: 'BASE_TYPE_INVALID', message: issue.message };
    case 'custom': {
      const code = (issue.params as { code?: unknown } | undefined)?.code;
      return { code: typeof code === 'string' ? code : 'BASE_TYPE_INVALID', message: issue.message };
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
export function fieldErrorTree(issues: readonly Issue[], prefix: (string | number)[] = []): FieldErrorTree {
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
        // A leaf reached by a longer path gains children beside its _errors.
        node = child as FieldErrorTree;
      }
    }
    const leaf = node['_errors'];
    const error = fieldErrorOf(issue);
    if (Array.isArray(leaf)) leaf.push(error);
    else node['_errors'] = [error];
  }
  return root;
}
