import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { APIUser } from 'discord-api-types/v10';
import { ChannelSidebar } from '../channels/ChannelSidebar.js';
import { reduce, type ClientState } from '../state.js';
import { GUILD_ID, ME, guildCreate, readyState, renderWithClient } from '../test/render.js';
import { VOICE_UNAVAILABLE_REASON } from './VoiceUnavailableDialog.js';

const LOUNGE = '300000000000000002';
const STAGE = '300000000000000003';
const BOB: APIUser = {
  id: '100000000000000002',
  username: 'bob',
  global_name: 'Bob',
  discriminator: '0',
  avatar: null,
};
const CAT: APIUser = { ...BOB, id: '100000000000000003', username: 'cat', global_name: 'Cat' };
const member = (user: APIUser) => ({
  user,
  roles: [],
  joined_at: '2026-01-01T00:00:00.000Z',
  deaf: false,
  mute: false,
});

/** The fixture guild with a voice and a stage channel, and Bob connected to the voice one. */
function voiceGuildState(): ClientState {
  return reduce(
    readyState(),
    {
      t: 'GUILD_CREATE',
      d: guildCreate({
        channels: [
          { id: '300000000000000001', type: 0, name: 'general', position: 0 },
          { id: LOUNGE, type: 2, name: 'Lounge', position: 1 },
          { id: STAGE, type: 13, name: 'Town hall', position: 2 },
        ],
        members: [member(ME), member(BOB), member(CAT)],
        voice_states: [{ user_id: BOB.id, channel_id: LOUNGE, self_mute: true, self_deaf: false }],
      }),
    },
    0,
  );
}

function voiceUpdate(user: APIUser, channelId: string | null, flags: Record<string, boolean> = {}) {
  return {
    t: 'VOICE_STATE_UPDATE',
    d: {
      guild_id: GUILD_ID,
      channel_id: channelId,
      user_id: user.id,
      session_id: 's',
      member: member(user),
      self_mute: false,
      self_deaf: false,
      ...flags,
    },
  };
}

/** A person's row in a channel's list. */
function row(list: HTMLElement, name: string): HTMLElement {
  const item = within(list).getByText(name).closest('li');
  if (item === null) throw new Error(`${name} has no row`);
  return item;
}

function renderSidebar() {
  const state = voiceGuildState();
  const guild = state.guilds[GUILD_ID];
  if (guild === undefined) throw new Error('fixture guild missing');
  const rendered = renderWithClient(<ChannelSidebar guild={guild} channelId={null} />, state);
  const dispatch = (frame: { t: string; d: unknown }) => {
    act(() => {
      rendered.store.set((s) => reduce(s, frame, 0));
    });
  };
  return { ...rendered, dispatch };
}

beforeEach(() => {
  // The activity shelf under each voice channel reads its instances: none.
  vi.stubGlobal('fetch', () => Promise.resolve(Response.json([])));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('a voice channel in the sidebar', () => {
  it('lists who is connected, with their flags, and follows them live', () => {
    const { dispatch } = renderSidebar();
    const lounge = screen.getByRole('list', { name: 'Connected to Lounge' });
    expect(within(lounge).getByText('Bob')).toBeDefined();
    expect(within(lounge).getByRole('img', { name: 'Muted' })).toBeDefined();
    expect(screen.queryByRole('list', { name: 'Connected to Town hall' })).toBeNull();

    // Cat joins with her camera on; Bob deafens.
    dispatch(voiceUpdate(CAT, LOUNGE, { self_video: true }));
    dispatch(voiceUpdate(BOB, LOUNGE, { self_mute: true, self_deaf: true }));
    expect(
      within(lounge)
        .getAllByRole('listitem')
        .map((li) => li.querySelector('.voice-member-name')?.textContent),
    ).toEqual(['Bob', 'Cat']);
    expect(within(row(lounge, 'Bob')).getByRole('img', { name: 'Deafened' })).toBeDefined();
    expect(within(row(lounge, 'Cat')).getByRole('img', { name: 'Camera on' })).toBeDefined();
    expect(within(row(lounge, 'Cat')).queryByRole('img', { name: 'Muted' })).toBeNull();

    // Bob moves to the stage as a listener; a moderator mutes Cat.
    dispatch(voiceUpdate(BOB, STAGE, { suppress: true }));
    dispatch(voiceUpdate(CAT, LOUNGE, { mute: true }));
    expect(within(lounge).getAllByRole('listitem')).toHaveLength(1);
    expect(within(lounge).getByRole('img', { name: 'Server muted' })).toBeDefined();
    const stage = screen.getByRole('list', { name: 'Connected to Town hall' });
    expect(within(stage).getByText('Bob')).toBeDefined();
    expect(within(stage).getByText('Listener')).toBeDefined();

    // Both leave: the lists go.
    dispatch(voiceUpdate(BOB, null));
    dispatch(voiceUpdate(CAT, null));
    expect(screen.queryByRole('list', { name: /^Connected to/ })).toBeNull();
  });

  it('says why the browser cannot join, and sends nothing to the gateway', async () => {
    const { gateway } = renderSidebar();
    const send = vi.spyOn(gateway, 'send');
    const user = userEvent.setup();
    const button = screen.getByRole('button', { name: 'Lounge (voice channel)' });
    expect(button.getAttribute('aria-haspopup')).toBe('dialog');
    await user.click(button);
    const dialog = screen.getByRole('dialog', {
      name: 'You cannot join Lounge from the browser',
    });
    // The reason is the dialog's description, read out with its name.
    expect(dialog.getAttribute('aria-describedby')).not.toBeNull();
    expect(
      document.getElementById(dialog.getAttribute('aria-describedby') ?? '')?.textContent,
    ).toBe(VOICE_UNAVAILABLE_REASON);
    expect(within(dialog).getByText('@discordjs/voice')).toBeDefined();
    expect(within(dialog).getByText('docs/voice.md')).toBeDefined();
    // Focus is on Close; Close hands it back to the channel.
    const close = within(dialog).getByRole('button', { name: 'Close' });
    expect(document.activeElement).toBe(close);
    await user.click(close);
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(button);
    expect(send).not.toHaveBeenCalled();
    // The activities launcher is still under the channel.
    expect(screen.getByRole('button', { name: 'Activities in Lounge' })).toBeDefined();
  });

  it("shows how long the channel's call has gone on, while it goes on", () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const start = 1_790_000_000;
    vi.setSystemTime((start + 65) * 1000);
    const { dispatch } = renderSidebar();
    expect(screen.queryByText(/In call for/)).toBeNull();
    dispatch({
      t: 'CHANNEL_INFO',
      d: { guild_id: GUILD_ID, channels: [{ id: LOUNGE, status: null, voice_start_time: start }] },
    });
    expect(screen.getByText('1:05').closest('p')?.textContent).toBe('In call for 1:05');
    act(() => {
      vi.advanceTimersByTime(60_000);
    });
    expect(screen.getByText('2:05').getAttribute('datetime')).toBe('PT125S');
    dispatch({
      t: 'VOICE_CHANNEL_START_TIME_UPDATE',
      d: { id: LOUNGE, guild_id: GUILD_ID, voice_start_time: null },
    });
    expect(screen.queryByText(/In call for/)).toBeNull();
  });
});
