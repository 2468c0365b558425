import { describe, expect, it } from 'vitest';
import { GuildFeature, type APIRole, type RoleFlags } from 'discord-api-types/v10';
import { colorRole, nameStyle } from './roleColor.js';

function role(id: string, position: number, colors: Partial<APIRole['colors']>): APIRole {
  const full = { primary_color: 0, secondary_color: null, tertiary_color: null, ...colors };
  return {
    id,
    name: `r${id}`,
    position,
    // eslint-disable-next-line @typescript-eslint/no-deprecated -- the API still sends it
    color: full.primary_color,
    colors: full,
    permissions: '0',
    hoist: false,
    managed: false,
    mentionable: false,
    icon: null,
    unicode_emoji: null,
    // No flag set (the enum has no zero member).
    flags: 0 as unknown as RoleFlags,
  };
}

const roles = [
  role('1', 0, {}),
  role('2', 1, { primary_color: 0x00ff00 }),
  role('3', 3, { primary_color: 0xff0000, secondary_color: 0x0000ff }),
  role('4', 5, {}),
];

describe('role colours', () => {
  it('picks the highest role that has a colour', () => {
    expect(colorRole({ roles }, { roles: ['2', '3', '4'] })?.id).toBe('3');
    expect(colorRole({ roles }, { roles: ['2', '4'] })?.id).toBe('2');
    expect(colorRole({ roles }, { roles: ['4'] })).toBeUndefined();
    expect(nameStyle({ roles, features: [] }, { roles: ['4'] })).toBeUndefined();
  });

  it('paints a gradient only with ENHANCED_ROLE_COLORS and a secondary colour', () => {
    expect(nameStyle({ roles, features: [] }, { roles: ['3'] })).toEqual({ color: '#ff0000' });
    expect(
      nameStyle({ roles, features: [GuildFeature.EnhancedRoleColors] }, { roles: ['3'] }),
    ).toEqual({
      color: '#ff0000',
      backgroundImage: 'linear-gradient(to right, #ff0000, #0000ff)',
      backgroundClip: 'text',
      WebkitBackgroundClip: 'text',
      WebkitTextFillColor: 'transparent',
    });
    expect(
      nameStyle({ roles, features: [GuildFeature.EnhancedRoleColors] }, { roles: ['2'] }),
    ).toEqual({
      color: '#00ff00',
    });
  });

  it('includes a tertiary colour (the holographic style)', () => {
    const holo = [
      role('9', 2, {
        primary_color: 11127295,
        secondary_color: 16759788,
        tertiary_color: 16761760,
      }),
    ];
    expect(
      nameStyle({ roles: holo, features: [GuildFeature.EnhancedRoleColors] }, { roles: ['9'] })
        ?.backgroundImage,
    ).toBe('linear-gradient(to right, #a9c9ff, #ffbbec, #ffc3a0)');
  });
});
