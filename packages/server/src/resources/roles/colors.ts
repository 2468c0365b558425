import { invalidField } from '../../errors/index.js';
import type { RoleRecord } from '../../storage/index.js';
import type { RoleInput } from './schemas.js';

/** The guild feature that unlocks gradient role colours (spec: Role object). */
export const ENHANCED_ROLE_COLORS = 'ENHANCED_ROLE_COLORS';

/**
 * The holographic style: whenever a tertiary colour is sent, the platform sets all three to
 * these values (docs/platform-notes.md#role-colors).
 */
export const HOLOGRAPHIC_COLORS = {
  color: 11127295,
  secondaryColor: 16759788,
  tertiaryColor: 16761760,
} as const;

export type RoleColors = Pick<RoleRecord, 'color' | 'secondaryColor' | 'tertiaryColor'>;

/**
 * The colours a create or modify asks for, or undefined when it names none. `colors` wins over
 * the deprecated `color`, which stays the primary colour either way; `color` alone changes only
 * the primary colour. Secondary and tertiary colours need ENHANCED_ROLE_COLORS.
 * @throws ApiError 50035 for a gradient in a guild without the feature.
 */
export function resolveColors(
  input: Pick<RoleInput, 'color' | 'colors'>,
  current: RoleColors,
  features: readonly string[],
): RoleColors | undefined {
  const colors = input.colors ?? undefined;
  if (colors === undefined) {
    if (input.color === undefined) return undefined;
    // Only the colours: `current` may be the whole role, whose other fields are not ours to set.
    return {
      color: input.color ?? 0,
      secondaryColor: current.secondaryColor,
      tertiaryColor: current.tertiaryColor,
    };
  }
  const secondary = colors.secondary_color ?? null;
  const tertiary = colors.tertiary_color ?? null;
  if (!features.includes(ENHANCED_ROLE_COLORS)) {
    for (const [field, value] of [
      ['secondary_color', secondary],
      ['tertiary_color', tertiary],
    ] as const) {
      if (value !== null) {
        throw invalidField(
          ['colors', field],
          'ENHANCED_ROLE_COLORS_REQUIRED',
          'Gradient role colors need the ENHANCED_ROLE_COLORS guild feature.',
        );
      }
    }
  }
  if (tertiary !== null) return { ...HOLOGRAPHIC_COLORS };
  return {
    color: colors.primary_color ?? input.color ?? 0,
    secondaryColor: secondary,
    tertiaryColor: null,
  };
}
