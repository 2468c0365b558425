/**
 * The platform's field errors as sentences for an operator: `--name: Must be 2 or more in
 * length.` instead of the error tree an API client reads.
 */
import type { FieldErrorTree } from '@guildhall/protocol';

function isLeaf(value: unknown): value is { message: string }[] {
  return Array.isArray(value);
}

/** `name` → `--name`, `global_name` → `--global-name`, `a.0.b` → `--a (0, b)`. */
function flagOf(path: readonly string[]): string {
  const [first = '', ...rest] = path;
  const flag = `--${first.replace(/_/g, '-')}`;
  return rest.length === 0 ? flag : `${flag} (${rest.join(', ')})`;
}

/** One sentence per field, each naming the flag that carried it, messages deduplicated. */
export function fieldErrorSentences(tree: FieldErrorTree, path: string[] = []): string[] {
  const sentences: string[] = [];
  for (const [key, value] of Object.entries(tree)) {
    if (key === '_errors' && isLeaf(value)) {
      const messages = [...new Set(value.map((e) => e.message))];
      const subject = path.length === 0 ? 'The input' : flagOf(path);
      sentences.push(`${subject}: ${messages.join(' ')}`);
    } else if (!isLeaf(value)) {
      sentences.push(...fieldErrorSentences(value, [...path, key]));
    }
  }
  return sentences;
}
