import {
  GuildFeature,
  type APIGuild,
  type APIGuildMember,
  type APIRole,
} from 'discord-api-types/v10';
import type { CSSProperties } from 'react';
import { compareIds } from '../state.js';

function hex(color: number): string {
  return `#${color.toString(16).padStart(6, '0')}`;
}

/** The member's highest role that has a colour (0 is "no colour"), or undefined. */
export function colorRole(
  guild: Pick<APIGuild, 'roles'>,
  member: Pick<APIGuildMember, 'roles'> | undefined,
): APIRole | undefined {
  if (member === undefined) return undefined;
  const held = new Set(member.roles);
  let best: APIRole | undefined;
  for (const role of guild.roles) {
    if (!held.has(role.id)) continue;
    const primary = role.colors.primary_color;
    if (primary === 0) continue;
    // Higher position wins; at one position the older role (smaller id), as the platform orders.
    if (
      best === undefined ||
      role.position > best.position ||
      (role.position === best.position && compareIds(role.id, best.id) < 0)
    ) {
      best = role;
    }
  }
  return best;
}

/**
 * The style of a member's name: their colour role's colour, or, when the guild has
 * ENHANCED_ROLE_COLORS and the role a secondary colour, a gradient painted on the text (the
 * platform's gradient role colours). Style props only: the CSP allows no inline style strings.
 */
export function nameStyle(
  guild: Pick<APIGuild, 'roles' | 'features'> | undefined,
  member: Pick<APIGuildMember, 'roles'> | undefined,
): CSSProperties | undefined {
  if (guild === undefined) return undefined;
  const role = colorRole(guild, member);
  if (role === undefined) return undefined;
  const primary = role.colors.primary_color;
  const secondary = role.colors.secondary_color;
  const tertiary = role.colors.tertiary_color;
  const enhanced = guild.features.includes(GuildFeature.EnhancedRoleColors);
  if (!enhanced || secondary === null) return { color: hex(primary) };
  const stops = [primary, secondary, ...(tertiary === null ? [] : [tertiary])].map(hex);
  return {
    color: hex(primary),
    backgroundImage: `linear-gradient(to right, ${stops.join(', ')})`,
    backgroundClip: 'text',
    WebkitBackgroundClip: 'text',
    WebkitTextFillColor: 'transparent',
  };
}
