/**
 * @module resources/commands/options: the shape of a command option as sent, and the field
 * helpers the command schemas share. A leaf below `schemas.ts` and `rules.ts`, which checks what
 * the shape alone cannot.
 */
import { z } from 'zod';
import { COMMAND_LIMITS as L } from './limits.js';

/** Null is "not given", as the platform reads it for every optional command field. */
export const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

export const Localizations = (max: number) =>
  optional(z.record(z.string(), z.string().min(1).max(max)));

/** A choice of a STRING, INTEGER or NUMBER option (its value's type is checked by the rules). */
const Choice = z.object({
  name: z.string().min(1).max(L.maxChoiceName),
  name_localizations: Localizations(L.maxChoiceName),
  value: z.union([z.string().max(L.maxChoiceValue), z.number()]),
});

/**
 * One option as sent. The shape is checked here; which fields go with which type, the nesting
 * of subcommands and the names are checked by `checkCommand` (rules.ts).
 */
export const OptionInput = z.object({
  type: z.number().int(),
  name: z.string().min(1).max(L.maxName),
  name_localizations: Localizations(L.maxName),
  description: z.string().min(1).max(L.maxDescription),
  description_localizations: Localizations(L.maxDescription),
  required: optional(z.boolean()),
  choices: optional(z.array(Choice).max(L.maxChoices)),
  get options() {
    return optional(z.array(OptionInput).max(L.maxOptions));
  },
  channel_types: optional(z.array(z.number().int())),
  min_value: optional(z.number()),
  max_value: optional(z.number()),
  min_length: optional(z.number().int().min(0).max(L.maxStringLength)),
  max_length: optional(z.number().int().min(1).max(L.maxStringLength)),
  autocomplete: optional(z.boolean()),
  /** ATTACHMENT: the file types accepted ("image", "video", "audio" or ".ext"), Guildhall's. */
  file_types: optional(z.array(z.string().min(1).max(32)).max(L.maxFileTypes)),
});
export type OptionInput = z.infer<typeof OptionInput>;
