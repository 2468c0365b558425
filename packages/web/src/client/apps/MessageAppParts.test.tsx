import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MessageType, type APIMessage } from 'discord-api-types/v10';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useClientState } from '../context.js';
import { setToken } from '../../lib/session.js';
import { InteractionHeader, MessageComponents } from './MessageAppParts.js';
import {
  CHANNEL,
  GUILD_ID,
  interactionsSent,
  ME,
  renderClient,
  stubApi,
  TEXT_CHANNEL,
} from './testHarness.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setToken(null);
});

const BOT = {
  id: '901',
  username: 'echo',
  global_name: 'Echo Bot',
  bot: true,
  discriminator: '0',
  avatar: null,
};

function message(extra: Record<string, unknown>): APIMessage {
  return {
    id: '600',
    channel_id: CHANNEL.id,
    author: BOT,
    content: '',
    timestamp: '2026-01-01T00:00:00Z',
    edited_timestamp: null,
    tts: false,
    mention_everyone: false,
    mentions: [],
    mention_roles: [],
    attachments: [],
    embeds: [],
    pinned: false,
    type: MessageType.Default,
    ...extra,
  };
}

const V1 = message({
  application_id: '900',
  components: [
    {
      type: 1,
      id: 1,
      components: [
        { type: 2, id: 2, style: 3, label: 'Deploy', custom_id: 'deploy' },
        { type: 2, id: 3, style: 4, label: 'Cancel', custom_id: 'cancel', emoji: { name: '✖' } },
        { type: 2, id: 4, style: 5, label: 'Changelog', url: 'https://example.com/changes' },
        { type: 2, id: 5, style: 5, label: 'Sneaky', url: 'javascript:alert(1)' },
        { type: 2, id: 6, style: 6, sku_id: '123' },
      ],
    },
    {
      type: 1,
      id: 7,
      components: [
        {
          type: 3,
          id: 8,
          custom_id: 'region',
          placeholder: 'Regions',
          min_values: 1,
          max_values: 2,
          options: [
            { label: 'Europe', value: 'eu' },
            { label: 'Asia', value: 'asia' },
            { label: 'Africa', value: 'africa' },
          ],
        },
      ],
    },
    {
      type: 1,
      id: 9,
      components: [{ type: 5, id: 10, custom_id: 'who', placeholder: 'Pick someone' }],
    },
  ],
});

describe('MessageComponents', () => {
  it('sends a button click with the message and shows it loading until the outcome', async () => {
    const requests = stubApi();
    const user = userEvent.setup();
    const { socket } = await renderClient(
      <MessageComponents message={V1} channel={TEXT_CHANNEL} />,
    );
    const deploy = screen.getByRole('button', { name: 'Deploy' });
    await user.click(deploy);
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(1);
    });
    const [sent] = interactionsSent(requests);
    expect(sent).toEqual({
      type: 3,
      application_id: '900',
      guild_id: GUILD_ID,
      channel_id: CHANNEL.id,
      message_id: '600',
      session_id: 'session-1',
      nonce: expect.any(String) as string,
      data: { component_type: 2, custom_id: 'deploy' },
    });
    expect(deploy.getAttribute('aria-busy')).toBe('true');
    expect(deploy).toHaveProperty('disabled', true);
    // Other components stay usable meanwhile.
    expect(screen.getByRole('button', { name: '✖ Cancel' })).toHaveProperty('disabled', false);
    act(() => {
      socket.dispatch('INTERACTION_SUCCESS', { id: '1', nonce: sent?.nonce });
    });
    await waitFor(() => {
      expect(deploy).toHaveProperty('disabled', false);
    });
    expect(deploy.getAttribute('aria-busy')).toBeNull();

    await user.click(screen.getByRole('button', { name: '✖ Cancel' }));
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(2);
    });
    act(() => {
      socket.dispatch('INTERACTION_FAILURE', {
        id: '2',
        nonce: interactionsSent(requests)[1]?.nonce,
      });
    });
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The application did not respond',
    );
  });

  it('opens only http(s) link buttons, safely, and never sends premium or link clicks', async () => {
    const requests = stubApi();
    await renderClient(<MessageComponents message={V1} channel={TEXT_CHANNEL} />);
    const link = screen.getByRole('link', { name: /Changelog/ });
    expect(link.getAttribute('href')).toBe('https://example.com/changes');
    expect(link.getAttribute('rel')).toBe('noopener noreferrer');
    expect(screen.queryByRole('link', { name: /Sneaky/ })).toBeNull();
    expect(screen.getByRole('button', { name: 'Sneaky' })).toHaveProperty('disabled', true);
    expect(screen.getByRole('button', { name: 'Premium' })).toHaveProperty('disabled', true);
    expect(screen.getByText(/Purchases are not available/)).toBeDefined();
    expect(interactionsSent(requests)).toEqual([]);
  });

  it('sends selections within min and max values', async () => {
    const requests = stubApi();
    const user = userEvent.setup();
    await renderClient(<MessageComponents message={V1} channel={TEXT_CHANNEL} />);
    const regions = screen.getByRole('listbox', { name: 'Regions' });
    const apply = screen.getByRole('button', { name: 'Apply' });
    expect(apply).toHaveProperty('disabled', true);
    await user.selectOptions(regions, ['eu', 'asia', 'africa']);
    expect(apply).toHaveProperty('disabled', true);
    await user.deselectOptions(regions, 'africa');
    await user.click(apply);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Pick someone' }), 'Ann');
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(2);
    });
    expect(interactionsSent(requests).map((b) => b.data)).toEqual([
      { component_type: 3, custom_id: 'region', values: ['eu', 'asia'] },
      { component_type: 5, custom_id: 'who', values: [ME.id] },
    ]);
  });

  it('lays out a components v2 message and finds the app of a bot message by its bot', async () => {
    const requests = stubApi((request) =>
      request.path.endsWith('/application-command-index')
        ? {
            status: 200,
            body: {
              applications: [
                { id: '900', name: 'Echo Bot', icon: null, description: '', bot_id: BOT.id },
              ],
              application_commands: [],
              version: '0',
            },
          }
        : undefined,
    );
    const user = userEvent.setup();
    const v2 = message({
      flags: 1 << 15,
      components: [
        {
          type: 17,
          id: 1,
          accent_color: 0x5865f2,
          components: [
            { type: 10, id: 2, content: '# Version 2.0 <script>x</script>' },
            {
              type: 9,
              id: 3,
              components: [{ type: 10, id: 4, content: 'New engine' }],
              accessory: {
                type: 11,
                id: 5,
                media: { url: 'https://cdn.test/cover.png' },
                description: 'cover',
              },
            },
            {
              type: 12,
              id: 6,
              items: [{ media: { url: 'https://cdn.test/shot.png' }, description: 'shot' }],
            },
            { type: 14, id: 7, divider: true, spacing: 2 },
            {
              type: 13,
              id: 8,
              file: { url: 'https://cdn.test/notes.txt' },
              name: 'notes.txt',
              size: 2048,
            },
            {
              type: 1,
              id: 9,
              components: [{ type: 2, id: 10, style: 1, label: 'Install', custom_id: 'install' }],
            },
          ],
        },
      ],
    });
    const { view } = await renderClient(<MessageComponents message={v2} channel={TEXT_CHANNEL} />);
    expect(screen.getByText(/Version 2.0/).textContent).toContain('<script>x</script>');
    expect(view.container.querySelector('script')).toBeNull();
    expect(screen.getByRole('img', { name: 'cover' }).getAttribute('src')).toBe(
      'https://cdn.test/cover.png',
    );
    expect(screen.getByRole('img', { name: 'shot' })).toBeDefined();
    expect(screen.getByRole('separator')).toBeDefined();
    expect(screen.getByRole('link', { name: 'notes.txt' }).getAttribute('rel')).toBe(
      'noopener noreferrer',
    );
    expect(screen.getByText('2.0 KB')).toBeDefined();
    const container = view.container.querySelector<HTMLElement>('.app-container');
    expect(container?.style.borderLeftColor).toBe('rgb(88, 101, 242)');
    await user.click(screen.getByRole('button', { name: 'Install' }));
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(1);
    });
    expect(interactionsSent(requests)[0]).toMatchObject({
      application_id: '900',
      message_id: '600',
      data: { component_type: 2, custom_id: 'install' },
    });
  });

  it('says the app is thinking while a deferred response loads', async () => {
    stubApi();
    await renderClient(
      <MessageComponents message={message({ flags: 128 })} channel={TEXT_CHANNEL} />,
    );
    expect(screen.getByRole('status').textContent).toBe('Echo Bot is thinking…');
  });
});

describe('InteractionHeader', () => {
  function Shown({ id }: { id: string }) {
    const shown = useClientState((s) => s.messages[CHANNEL.id]?.byId[id]);
    return shown === undefined ? <p>gone</p> : <InteractionHeader message={shown} />;
  }

  it('names the invoker and lets them dismiss an ephemeral response here', async () => {
    stubApi((request) =>
      request.path.startsWith(`/channels/${CHANNEL.id}/messages`)
        ? { status: 200, body: [] }
        : undefined,
    );
    const user = userEvent.setup();
    const { client } = await renderClient(<Shown id="600" />);
    const reply = message({
      flags: 64,
      interaction_metadata: {
        id: '555',
        type: 2,
        user: ME,
        authorizing_integration_owners: { '0': GUILD_ID },
      },
    });
    act(() => {
      client.store.set((s) => ({
        ...s,
        messages: {
          ...s.messages,
          [CHANNEL.id]: { ids: ['600'], byId: { '600': reply }, hasMore: false },
        },
      }));
    });
    expect(screen.getByText('Ann used a command')).toBeDefined();
    expect(screen.getByText(/Only you can see this/)).toBeDefined();
    await user.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.getByText('gone')).toBeDefined();
    expect(client.store.get().messages[CHANNEL.id]?.ids).toEqual([]);
  });

  it('shows nothing for a message that answers no command and is not ephemeral', async () => {
    stubApi();
    const { view } = await renderClient(<InteractionHeader message={message({})} />);
    expect(view.container.querySelector('.interaction-header')).toBeNull();
  });
});
