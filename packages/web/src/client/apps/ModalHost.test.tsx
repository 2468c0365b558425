import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../lib/session.js';
import { ModalHost } from './ModalHost.js';
import { CHANNEL, GUILD_ID, interactionsSent, ME, renderClient, stubApi } from './testHarness.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setToken(null);
});

const BOB = { id: '101', username: 'bob', global_name: null, discriminator: '0', avatar: null };
const MOD_ROLE = { id: '210', name: 'Mods', permissions: '0', position: 1, color: 0 };

/** A modal with every component type a modal takes (docs/components.md#modals). */
const MODAL = {
  id: '700',
  channel_id: CHANNEL.id,
  custom_id: 'feedback',
  application: { id: '900', name: 'Echo Bot', icon: null, description: '' },
  title: 'Feedback',
  nonce: 'n-modal',
  components: [
    { type: 10, id: 1, content: 'Tell us **everything**' },
    {
      type: 18,
      id: 2,
      label: 'Summary',
      description: 'One line',
      component: {
        type: 4,
        id: 3,
        custom_id: 'summary',
        style: 1,
        min_length: 3,
        max_length: 40,
        placeholder: 'Short',
      },
    },
    {
      type: 18,
      id: 4,
      label: 'Details',
      component: {
        type: 4,
        id: 5,
        custom_id: 'details',
        style: 2,
        required: false,
        value: 'prefilled',
        // What the server's normalized modal carries for unset limits.
        min_length: null,
        max_length: null,
        placeholder: null,
      },
    },
    {
      type: 18,
      id: 6,
      label: 'Topics',
      component: {
        type: 3,
        id: 7,
        custom_id: 'topics',
        min_values: 1,
        max_values: 2,
        options: [
          { label: 'Speed', value: 'speed' },
          { label: 'Looks', value: 'looks', default: true },
          { label: 'Price', value: 'price' },
        ],
      },
    },
    { type: 18, id: 8, label: 'Reviewer', component: { type: 5, id: 9, custom_id: 'reviewer' } },
  ],
};

/** The second modal: the other component types. */
const MODAL_2 = {
  ...MODAL,
  id: '701',
  custom_id: 'more',
  title: 'More',
  components: [
    {
      type: 18,
      id: 1,
      label: 'Role',
      component: { type: 6, id: 2, custom_id: 'role', required: false },
    },
    {
      type: 18,
      id: 3,
      label: 'Who or what',
      component: { type: 7, id: 4, custom_id: 'who', required: false },
    },
    {
      type: 18,
      id: 5,
      label: 'Where',
      component: { type: 8, id: 6, custom_id: 'where', required: false },
    },
    {
      type: 18,
      id: 7,
      label: 'Screenshots',
      component: {
        type: 19,
        id: 8,
        custom_id: 'shots',
        min_values: 1,
        max_values: 2,
        file_types: ['image'],
      },
    },
    {
      type: 1,
      id: 9,
      components: [
        { type: 4, id: 10, custom_id: 'legacy', style: 1, label: 'Old style', required: false },
      ],
    },
  ],
};

const MODAL_3 = {
  ...MODAL,
  id: '702',
  custom_id: 'choices',
  title: 'Choices',
  components: [
    {
      type: 18,
      id: 1,
      label: 'Rating',
      component: {
        type: 21,
        id: 2,
        custom_id: 'rating',
        options: [
          { label: 'Good', value: 'good' },
          { label: 'Bad', value: 'bad' },
        ],
      },
    },
    {
      type: 18,
      id: 3,
      label: 'Platforms',
      component: {
        type: 22,
        id: 4,
        custom_id: 'platforms',
        required: false,
        options: [
          { label: 'Web', value: 'web', default: true },
          { label: 'Desktop', value: 'desktop' },
        ],
      },
    },
    { type: 18, id: 5, label: 'Subscribe', component: { type: 23, id: 6, custom_id: 'subscribe' } },
  ],
};

const GUILD = {
  roles: [{ id: GUILD_ID, name: '@everyone', permissions: '0', position: 0, color: 0 }, MOD_ROLE],
  members: [
    { user: ME, roles: [], joined_at: '2026-01-01T00:00:00Z' },
    { user: BOB, roles: [MOD_ROLE.id], joined_at: '2026-01-01T00:00:00Z' },
  ],
};

async function show(modal: object) {
  const requests = stubApi();
  const rendered = await renderClient(<ModalHost />, GUILD);
  act(() => {
    rendered.socket.dispatch('INTERACTION_MODAL_CREATE', modal);
  });
  const dialog = await screen.findByRole('dialog', { name: (modal as { title: string }).title });
  return { ...rendered, requests, dialog };
}

describe('ModalHost', () => {
  it('submits text inputs, a string select and a user select as the modal-submit rules want', async () => {
    const user = userEvent.setup();
    const { dialog, requests, socket } = await show(MODAL);
    expect(within(dialog).getByText('everything').tagName).toBe('STRONG');
    expect(within(dialog).getByLabelText('Details')).toHaveProperty('value', 'prefilled');
    // Required components are enforced before anything is sent.
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findAllByText('This field is required.')).toHaveLength(1);
    expect(within(dialog).getByText('Choose at least one.')).toBeDefined();
    await user.type(within(dialog).getByLabelText('Summary (required)'), 'ok');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('At least 3 characters.')).toBeDefined();
    expect(interactionsSent(requests)).toEqual([]);

    await user.type(within(dialog).getByLabelText('Summary (required)'), ' then');
    const topics = within(dialog).getByRole('group', { name: 'Topics (required)' });
    await user.click(within(topics).getByLabelText('Speed'));
    await user.selectOptions(within(dialog).getByLabelText('Reviewer (required)'), 'bob');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(1);
    });
    const [sent] = interactionsSent(requests);
    expect(sent).toEqual({
      type: 5,
      application_id: '900',
      guild_id: GUILD_ID,
      channel_id: CHANNEL.id,
      session_id: 'session-1',
      nonce: expect.any(String) as string,
      data: {
        custom_id: 'feedback',
        components: [
          { type: 10, id: 1 },
          { type: 18, component: { type: 4, custom_id: 'summary', value: 'ok then' } },
          { type: 18, component: { type: 4, custom_id: 'details', value: 'prefilled' } },
          { type: 18, component: { type: 3, custom_id: 'topics', values: ['looks', 'speed'] } },
          { type: 18, component: { type: 5, custom_id: 'reviewer', values: [BOB.id] } },
        ],
      },
    });
    act(() => {
      socket.dispatch('INTERACTION_SUCCESS', { id: '800', nonce: sent?.nonce });
    });
    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
  });

  it('sends role, mentionable and channel selects, File Upload files and a legacy row', async () => {
    const user = userEvent.setup();
    const { dialog, requests } = await show(MODAL_2);
    await user.selectOptions(within(dialog).getByLabelText('Role'), 'Mods');
    await user.selectOptions(within(dialog).getByLabelText('Who or what'), '@Mods');
    await user.selectOptions(within(dialog).getByLabelText('Where'), 'general');
    const shots = within(dialog).getByLabelText('Screenshots (required)');
    expect(shots.getAttribute('accept')).toBe('image/*');
    const a = new File(['a'], 'a.png', { type: 'image/png' });
    const b = new File(['bb'], 'b.png', { type: 'image/png' });
    await user.upload(shots, [a, b]);
    await user.type(within(dialog).getByLabelText('Old style'), 'legacy text');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(1);
    });
    const request = requests.find((r) => r.path === '/interactions');
    expect(request?.files.map((f) => f.name)).toEqual(['a.png', 'b.png']);
    expect(interactionsSent(requests)[0]?.data).toEqual({
      custom_id: 'more',
      components: [
        { type: 18, component: { type: 6, custom_id: 'role', values: [MOD_ROLE.id] } },
        { type: 18, component: { type: 7, custom_id: 'who', values: [MOD_ROLE.id] } },
        { type: 18, component: { type: 8, custom_id: 'where', values: [CHANNEL.id] } },
        { type: 18, component: { type: 19, custom_id: 'shots', values: ['0', '1'] } },
        { type: 1, components: [{ type: 4, custom_id: 'legacy', value: 'legacy text' }] },
      ],
      attachments: [
        { id: '0', filename: 'a.png' },
        { id: '1', filename: 'b.png' },
      ],
    });
  });

  it('sends a radio group, a checkbox group and a checkbox; shows failures; Escape cancels', async () => {
    const user = userEvent.setup();
    const { dialog, requests, socket } = await show(MODAL_3);
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Choose one.')).toBeDefined();
    await user.click(within(dialog).getByRole('radio', { name: 'Bad' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Desktop' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Web' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Subscribe' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(1);
    });
    const [sent] = interactionsSent(requests);
    expect(sent?.data).toEqual({
      custom_id: 'choices',
      components: [
        { type: 18, component: { type: 21, custom_id: 'rating', value: 'bad' } },
        { type: 18, component: { type: 22, custom_id: 'platforms', values: ['desktop'] } },
        { type: 18, component: { type: 23, custom_id: 'subscribe', value: true } },
      ],
    });
    act(() => {
      socket.dispatch('INTERACTION_FAILURE', { id: '801', nonce: sent?.nonce });
    });
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'The application did not respond',
    );
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("shows the API's field errors on a refused submit", async () => {
    const requests = stubApi((request) =>
      request.path === '/interactions'
        ? {
            status: 400,
            body: {
              code: 50035,
              message: 'Invalid Form Body',
              errors: {
                data: {
                  custom_id: {
                    _errors: [{ code: 'X', message: 'This is not the modal that was shown.' }],
                  },
                },
              },
            },
          }
        : undefined,
    );
    const rendered = await renderClient(<ModalHost />, GUILD);
    act(() => {
      rendered.socket.dispatch('INTERACTION_MODAL_CREATE', MODAL_3);
    });
    const user = userEvent.setup();
    const dialog = await screen.findByRole('dialog', { name: 'Choices' });
    await user.click(within(dialog).getByRole('radio', { name: 'Good' }));
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByRole('alert')).toHaveProperty(
      'textContent',
      'data.custom_id: This is not the modal that was shown.',
    );
    expect(interactionsSent(requests)).toHaveLength(1);
  });
});
