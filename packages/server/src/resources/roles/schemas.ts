import { z } from 'zod';
import { DisplayName, PermissionBits, Snowflake, UInt31 } from '../../http/schemas.js';

/** An RGB colour as an integer. */
const Color = z.number().int().min(0).max(0xffffff);

export const RoleColorsInput = z.object({
  primary_color: Color.nullable().optional(),
  secondary_color: Color.nullable().optional(),
  tertiary_color: Color.nullable().optional(),
});

/** The body of POST and PATCH /guilds/{id}/roles[/{role_id}] (CreateRoleRequest). */
export const RoleBody = z.object({
  name: DisplayName(1, 100).nullable().optional(),
  permissions: PermissionBits.nullable().optional(),
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
      position: UInt31.nullable().optional(),
    }),
  )
  .max(250)
  .refine((items) => new Set(items.map((item) => item.id)).size === items.length, {
    message: 'Role ids must be unique.',
  });
export type RolePositionsInput = z.infer<typeof RolePositionsBody>;

export const RoleParams = z.object({ guild_id: z.string(), role_id: z.string() });
