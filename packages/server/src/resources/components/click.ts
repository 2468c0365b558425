import { fail, failWith, type Wire } from './fields.js';
import { ComponentTypes as T, SELECT_TYPES } from './limits.js';
import { pickedValues } from './values.js';
import { walkComponents } from './walk.js';

/** A person's click or selection: the `data` of a type-3 interaction. */
export interface ComponentClick {
  component_type: number;
  custom_id: string;
  values?: unknown;
}

/**
 * Checks a component interaction against the message's stored components: the custom_id names
 * a button or select there of `component_type`, not disabled (link and premium buttons, which
 * send no interaction, have no custom_id and so are never found); a select's values are within its options or snowflakes, each
 * once, min_values–max_values of them. Returns the component and the values picked (selects).
 * Throws 50035 (prefix `data`).
 */
export function readComponentClick(
  components: readonly unknown[],
  click: ComponentClick,
): { component: Record<string, unknown>; values?: string[] } {
  let component: Wire | undefined;
  walkComponents(components, (candidate) => {
    if (component === undefined && candidate['custom_id'] === click.custom_id) {
      const type = Number(candidate['type']);
      if (type === T.BUTTON || SELECT_TYPES.has(type)) component = candidate;
    }
  });
  if (component === undefined) {
    return fail(
      ['data', 'custom_id'],
      'COMPONENT_NOT_FOUND',
      'The message has no component with this custom_id.',
    );
  }
  const type = Number(component['type']);
  if (click.component_type !== type) {
    return failWith(['data', 'component_type'], 'BASE_TYPE_CHOICES', {
      choices: `{${String(type)}}`,
    });
  }
  if (component['disabled'] === true) {
    return fail(['data', 'custom_id'], 'COMPONENT_DISABLED', 'This component is disabled.');
  }
  if (type === T.BUTTON) {
    if (click.values !== undefined) {
      return fail(['data', 'values'], 'COMPONENT_FIELD_NOT_ALLOWED', 'Buttons take no values.');
    }
    return { component };
  }
  return { component, values: pickedValues(component, click.values, { path: ['data', 'values'] }) };
}
