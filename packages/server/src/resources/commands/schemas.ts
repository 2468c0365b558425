import { z } from 'zod';
import { PermissionBits, QueryBoolean, Snowflake } from '../../http/schemas.js';
import { COMMAND_LIMITS as L } from './limits.js';
import { checkCommand } from './rules.js';

/** Null is "not given", as the platform reads it for every optional command field. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullable().optional();

const Localizations = (max: number) => optional(z.record(z.string(), z.string().min(1).max(max)));

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

const IntSet = (values: readonly number[]) =>
  optional(
    z
      .array(z.union(values.map((v) => z.literal(v))))
      .min(1)
      .refine((list) => new Set(list).size === list.length, {
        message: 'Values must be unique.',
        params: { code: 'BASE_TYPE_INVALID' },
      }),
  );

/** The fields of a command shared by create, edit and bulk overwrite. */
const commandFields = {
  name_localizations: Localizations(L.maxName),
  description: optional(z.string().max(L.maxDescription)),
  description_localizations: Localizations(L.maxDescription),
  options: optional(z.array(OptionInput).max(L.maxOptions)),
  default_member_permissions: optional(PermissionBits),
  dm_permission: optional(z.boolean()),
  contexts: IntSet([0, 1, 2]),
  integration_types: IntSet([0, 1]),
  nsfw: optional(z.boolean()),
  handler: optional(z.union([z.literal(1), z.literal(2)])),
};

const CommandType = optional(z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(4)]));

/** POST …/commands (and each entry of a bulk overwrite, which may also name an `id`). */
export const CreateCommandBody = z
  .object({
    name: z.string().min(1).max(L.maxName),
    type: CommandType,
    ...commandFields,
  })
  .superRefine((body, ctx) => {
    checkCommand(body, ctx);
  });
export type CreateCommandInput = z.infer<typeof CreateCommandBody>;

/** PATCH …/commands/{id}: any field but the type (checked again as a whole once merged). */
export const EditCommandBody = z.object({
  name: optional(z.string().min(1).max(L.maxName)),
  ...commandFields,
});
export type EditCommandInput = z.infer<typeof EditCommandBody>;

/** PUT …/commands: the whole new set. */
export const BulkCommandsBody = z.array(
  z
    .object({
      id: optional(Snowflake),
      name: z.string().min(1).max(L.maxName),
      type: CommandType,
      ...commandFields,
    })
    .superRefine((body, ctx) => {
      checkCommand(body, ctx);
    }),
);
export type BulkCommandInput = z.infer<typeof BulkCommandsBody>[number];

/** PUT …/commands/{id}/permissions. */
export const PutPermissionsBody = z.object({
  permissions: z
    .array(
      z.object({
        id: Snowflake,
        type: z.union([z.literal(1), z.literal(2), z.literal(3)]),
        permission: z.boolean(),
      }),
    )
    .max(L.maxPermissions),
});
export type PutPermissionsInput = z.infer<typeof PutPermissionsBody>;

export const ListCommandsQuery = z.object({ with_localizations: QueryBoolean.optional() });

/** Path parameters (checked by the service: a malformed id is the unknown one). */
export const AppParams = z.object({ application_id: z.string() });
export const GuildParams = AppParams.extend({ guild_id: z.string() });
export const CommandParams = AppParams.extend({ command_id: z.string() });
export const GuildCommandParams = GuildParams.extend({ command_id: z.string() });
