/**
 * A member's roles in the moderation dialog (jsdom): a box shows what was asked at once, before
 * the gateway's GUILD_MEMBER_UPDATE says the role was given; a refusal puts the box back and
 * says why.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { APIUser } from 'discord-api-types/v10';
import { reduce } from '../state.js';
import { answerFetch, json } from '../../test/fetch.js';
import { GUILD_ID, guildCreate, readyState, renderWithClient } from '../test/render.js';
import { MemberActionDialog } from './MemberActionDialog.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const BOB: APIUser = {
  id: '800000000000000008',
  username: 'bob',
  discriminator: '0',
  global_name: 'Bob',
  avatar: null,
};
const CREW_ID = '200000000000000002';

/** The fixture guild with a Crew role and Bob, who holds none, as the gateway tells them. */
function rolesDialog() {
  const base = guildCreate();
  const bob = {
    user: BOB,
    roles: [],
    joined_at: '2026-01-01T00:00:00.000Z',
    deaf: false,
    mute: false,
  };
  const crew = { ...base.roles[0], id: CREW_ID, name: 'Crew', position: 1 };
  let state = reduce(readyState(), { t: 'GUILD_MEMBER_ADD', d: { ...bob, guild_id: GUILD_ID } }, 0);
  state = reduce(state, { t: 'GUILD_ROLE_CREATE', d: { guild_id: GUILD_ID, role: crew } }, 0);
  const guild = state.guilds[GUILD_ID];
  const member = state.members[GUILD_ID]?.[BOB.id];
  if (guild === undefined || member === undefined) throw new Error('fixture guild missing');
  return renderWithClient(
    <MemberActionDialog
      action="roles"
      guild={guild}
      target={{ user: BOB, member, name: 'bob' }}
      onClose={() => undefined}
    />,
    state,
  );
}

describe('MemberActionDialog roles', () => {
  it('checks the box at once while the role is given, before the gateway says so', async () => {
    // The PUT stays in flight: only the dialog's own state can check the box.
    const calls = answerFetch(() => new Promise<Response>(() => undefined));
    rolesDialog();
    const box = screen.getByRole('checkbox', { name: 'Crew' });
    expect((box as HTMLInputElement).checked).toBe(false);
    await userEvent.setup().click(box);
    expect((box as HTMLInputElement).checked).toBe(true);
    expect(calls.map(([url, init]) => `${init.method ?? 'GET'} ${url}`)).toEqual([
      `PUT /api/v10/guilds/${GUILD_ID}/members/${BOB.id}/roles/${CREW_ID}`,
    ]);
  });

  it('puts the box back and says why when the role is refused', async () => {
    answerFetch(() => json(403, { code: 50013, message: 'Missing Permissions' }));
    rolesDialog();
    const box = screen.getByRole('checkbox', { name: 'Crew' });
    await userEvent.setup().click(box);
    expect(await screen.findByText(/Missing Permissions/)).toBeTruthy();
    expect((box as HTMLInputElement).checked).toBe(false);
  });
});
