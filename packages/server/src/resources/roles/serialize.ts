import type { APIRole } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import type { RoleRecord } from '../../storage/index.js';

/**
 * The role as sent, checked against discord-api-types' APIRole; `color`, deprecated there, is
 * still sent.
 */
type RoleWireShape = Omit<WireShape<APIRole>, 'color'> & { color: number };

/**
 * A role on the wire (GuildRoleResponse). `color` is deprecated but still sent, equal to
 * `colors.primary_color` (spec: Role object). A bot's managed role carries `tags.bot_id`.
 */
export function serializeRole(role: RoleRecord) {
  return {
    id: role.id,
    name: role.name,
    permissions: role.permissions.toString(),
    position: role.position,
    color: role.color,
    colors: {
      primary_color: role.color,
      secondary_color: role.secondaryColor,
      tertiary_color: role.tertiaryColor,
    },
    hoist: role.hoist,
    managed: role.managed,
    mentionable: role.mentionable,
    icon: role.icon,
    unicode_emoji: role.unicodeEmoji,
    flags: role.flags,
    ...(role.botUserId === null ? {} : { tags: { bot_id: role.botUserId } }),
  } satisfies RoleWireShape;
}

export type RoleWire = ReturnType<typeof serializeRole>;
