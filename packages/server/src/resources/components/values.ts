import { isSnowflake } from '@guildhall/protocol';
import { charCount } from '../../domain/text.js';
import { fail, failWith, shown, type Path, type Wire } from './fields.js';
import { ComponentTypes as T } from './limits.js';

/** The values of a component's `options` (string select, radio group, checkbox group). */
const optionValues = (component: Wire): Set<string> =>
  new Set(
    (Array.isArray(component['options']) ? (component['options'] as Wire[]) : []).map((o) =>
      String(o['value']),
    ),
  );

const invalidChoice = (path: Path, value: unknown): never =>
  fail(path, 'COMPONENT_VALUE_INVALID', `"${shown(value)}" is not a valid choice.`);

/**
 * The values picked in a select, checkbox group or file upload: strings, each once, within
 * min_values–max_values (none at all is fine when the component is not required), each one of
 * the options (string select, checkbox group), one of `at.allowedIds` (file upload: the files
 * uploaded) or a snowflake (user, role, mentionable and channel selects).
 */
export function pickedValues(
  component: Wire,
  value: unknown,
  at: { path: Path; allowedIds?: ReadonlySet<string> },
): string[] {
  const { path, allowedIds } = at;
  if (!Array.isArray(value)) {
    return value == null
      ? failWith(path, 'BASE_TYPE_REQUIRED')
      : failWith(path, 'LIST_TYPE_CONVERT');
  }
  const min = Number(component['min_values'] ?? 1);
  const max = Number(component['max_values'] ?? 1);
  const skipped = component['required'] === false && value.length === 0;
  if (!skipped && (value.length < min || value.length > max)) {
    failWith(path, 'BASE_TYPE_BAD_LENGTH', { min, max });
  }
  const type = Number(component['type']);
  const options =
    type === T.STRING_SELECT || type === T.CHECKBOX_GROUP ? optionValues(component) : null;
  const seen = new Set<string>();
  return value.map((item: unknown, index) => {
    if (typeof item !== 'string') {
      return failWith([...path, index], 'STRING_TYPE_CONVERT', { value: shown(item) });
    }
    const known =
      options !== null
        ? options.has(item)
        : allowedIds !== undefined
          ? allowedIds.has(item)
          : isSnowflake(item);
    if (!known || seen.has(item)) invalidChoice([...path, index], item);
    seen.add(item);
    return item;
  });
}

/** A text input's answer: a string within min_length–max_length, not empty when required. */
export function textValue(component: Wire, value: unknown, path: Path): string {
  if (value != null && typeof value !== 'string') {
    return failWith(path, 'STRING_TYPE_CONVERT', { value: shown(value) });
  }
  const text = value ?? '';
  const length = charCount(text);
  if (length === 0) {
    if (component['required'] !== false) failWith(path, 'BASE_TYPE_REQUIRED');
    return text;
  }
  const min = Number(component['min_length'] ?? 0);
  const max = Number(component['max_length'] ?? 4000);
  if (length < min || length > max) failWith(path, 'BASE_TYPE_BAD_LENGTH', { min, max });
  return text;
}

/** A radio group's answer: one of its options, or null when it is not required. */
export function radioValue(component: Wire, value: unknown, path: Path): string | null {
  if (value == null) {
    if (component['required'] !== false) failWith(path, 'BASE_TYPE_REQUIRED');
    return null;
  }
  if (typeof value !== 'string' || !optionValues(component).has(value)) {
    return invalidChoice(path, value);
  }
  return value;
}

/** A checkbox's answer: checked or not (false when left out). */
export function checkboxValue(value: unknown, path: Path): boolean {
  if (value == null) return false;
  if (typeof value !== 'boolean') {
    return failWith(path, 'BOOLEAN_TYPE_COERCE', { value: shown(value) });
  }
  return value;
}
