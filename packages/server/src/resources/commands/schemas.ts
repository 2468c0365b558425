import { z } from 'zod';
import { PermissionBits, QueryBoolean, Snowflake } from '../../http/schemas.js';
import { COMMAND_LIMITS as L } from './limits.js';
import { Localizations, OptionInput, optional } from './options.js';
import { checkCommand } from './rules.js';

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
