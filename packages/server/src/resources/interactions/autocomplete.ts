/**
 * An autocomplete result's choices against the option being completed: their values take the
 * focused option's type (string, integer or number), as the platform requires.
 */
import { invalidField } from '../../errors/index.js';
import type { InteractionRecord } from '../../storage/index.js';
import type { CallbackAutocompleteData } from './callbackSchemas.js';
import type { z } from 'zod';
import { OptionType } from '../commands/index.js';

/** One autocomplete choice as the app gave it. */
export type AutocompleteChoice = NonNullable<
  z.infer<typeof CallbackAutocompleteData>['choices']
>[number];
type Choice = AutocompleteChoice;

interface DeliveredOption {
  type?: unknown;
  focused?: unknown;
  options?: unknown;
}

/** The focused option of an autocomplete interaction's options, inside subcommands too. */
function focusedOptionType(options: unknown): number | null {
  if (!Array.isArray(options)) return null;
  for (const option of options as DeliveredOption[]) {
    if (option.focused === true && typeof option.type === 'number') return option.type;
    const nested = focusedOptionType(option.options);
    if (nested !== null) return nested;
  }
  return null;
}

/** Whether a choice's value fits an option of this type. */
function fits(optionType: number | null, value: string | number): boolean {
  switch (optionType ?? 0) {
    case OptionType.STRING:
      return typeof value === 'string';
    case OptionType.INTEGER:
      return typeof value === 'number' && Number.isSafeInteger(value);
    case OptionType.NUMBER:
      return typeof value === 'number';
    default:
      return true;
  }
}

/**
 * Returns the choices as given, or throws 50035 at the first whose value is not of the focused
 * option's type (`data.choices.N.value`).
 */
export function autocompleteChoicesChecked(
  interaction: InteractionRecord,
  choices: readonly Choice[],
): Choice[] {
  const data = interaction.payload['data'] as { options?: unknown } | undefined;
  const optionType = focusedOptionType(data?.options);
  choices.forEach((choice, index) => {
    if (fits(optionType, choice.value)) return;
    const path = ['data', 'choices', index, 'value'];
    throw optionType === OptionType.STRING
      ? invalidField(
          path,
          'STRING_TYPE_CONVERT',
          `Could not interpret "${String(choice.value)}" as string.`,
        )
      : invalidField(
          path,
          'NUMBER_TYPE_COERCE',
          `Value "${String(choice.value)}" is not ${optionType === OptionType.INTEGER ? 'int' : 'number'}.`,
        );
  });
  return [...choices];
}
