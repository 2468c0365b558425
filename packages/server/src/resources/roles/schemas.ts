import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';

const MAX_PERMISSIONS = (1n << 64n) - 1n;

/** An RGB colour as an integer. */
const Color = z.number().int().min(0).max(0xffffff);

/**
 * A permission bitset: the platform sends it as a decimal string, older clients as a number.
 * Bits beyond 64 are refused.
 */
export const PermissionsInput = z
  .union([
    z.string().regex(/^\d{1,20}$/, 'Value is not a permission bitset.'),
    z.number().int().min(0),
  ])
  .transform((value) => BigInt(value))
  .refine((bits) => bits <= MAX_PERMISSIONS, 'Value is not a permission bitset.');

export const RoleColorsInput = z.object({
  primary_color: Color.nullable().optional(),
  secondary_color: Color.nullable().optional(),
  tertiary_color: Color.nullable().optional(),
});

/** The body of POST and PATCH /guilds/{id}/roles[/{role_id}] (CreateRoleRequest). */
export const RoleBody = z.object({
  name: z.string().min(1).max(100).nullable().optional(),
  permissions: PermissionsInput.nullable().optional(),
  color: Color.nullable().optional(),
  colors: RoleColorsInput.nullable().optional(),
  hoist: z.boolean().nullable().optional(),
  mentionable: z.boolean().nullable().optional(),
  icon: z.string().nullable().optional(),
  unicode_emoji: z.string().max(100).nullable().optional(),
});
export type RoleInput = z.infer<typeof RoleBody>;

/** PATCH /guilds/{id}/roles: the new positions. */
export const RolePositionsBody = z
  .array(
    z.object({
      id: Snowflake,
      position: z
        .number()
        .int()
        .min(0)
        .max(2 ** 31 - 1)
        .nullable()
        .optional(),
    }),
  )
  .max(250)
  .refine((items) => new Set(items.map((item) => item.id)).size === items.length, {
    message: 'Role ids must be unique.',
  });
export type RolePositionsInput = z.infer<typeof RolePositionsBody>;

export const GuildParams = z.object({ guild_id: z.string() });
export const RoleParams = z.object({ guild_id: z.string(), role_id: z.string() });
