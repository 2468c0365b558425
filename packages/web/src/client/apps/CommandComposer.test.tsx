import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../lib/session.js';
import { CommandComposer } from './CommandComposer.js';
import {
  CHANNEL,
  commandIndex,
  GUILD_ID,
  interactionsSent,
  ME,
  renderClient,
  stubApi,
  TEXT_CHANNEL,
  type SentRequest,
} from './testHarness.js';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  setToken(null);
});

const INDEX = commandIndex([
  {
    name: 'echo',
    description: 'Says it back',
    options: [
      { type: 3, name: 'text', description: 'What to say', required: true, max_length: 5 },
      { type: 4, name: 'times', description: 'How often', min_value: 1, max_value: 3 },
      {
        type: 3,
        name: 'tone',
        description: 'How',
        choices: [
          { name: 'Loud', value: 'loud' },
          { name: 'Soft', value: 'soft' },
        ],
      },
    ],
  },
  { name: 'ping', description: 'Pong' },
  {
    name: 'config',
    description: 'Settings',
    options: [
      {
        type: 1,
        name: 'set',
        description: 'Set one',
        options: [{ type: 5, name: 'on', description: 'Enabled', required: true }],
      },
      { type: 1, name: 'show', description: 'Show them' },
    ],
  },
  {
    name: 'find',
    description: 'Finds',
    options: [
      { type: 3, name: 'query', description: 'Search', required: true, autocomplete: true },
    ],
  },
]);

function api(
  extra: (r: SentRequest) => { status: number; body?: unknown } | undefined = () => undefined,
) {
  return stubApi((request) => {
    if (request.path === `/channels/${CHANNEL.id}/application-command-index`) {
      return { status: 200, body: INDEX };
    }
    return extra(request);
  });
}

async function open(initialText = '/') {
  const onDone = vi.fn();
  // As in the message composer, which is a form: nothing here may submit it.
  const outerSubmit = vi.fn((event: React.SyntheticEvent) => {
    event.preventDefault();
  });
  const rendered = await renderClient(
    <form onSubmit={outerSubmit}>
      <CommandComposer channel={TEXT_CHANNEL} initialText={initialText} onDone={onDone} />
    </form>,
  );
  const listbox = screen.getByRole('listbox', { name: 'Commands' });
  await within(listbox).findAllByRole('option');
  return { ...rendered, onDone, outerSubmit, listbox };
}

describe('CommandComposer: the command picker', () => {
  it('lists the index grouped by app, filters as one types, and moves with the arrows', async () => {
    api();
    const user = userEvent.setup();
    const { listbox, onDone } = await open();
    const group = within(listbox).getByRole('group', { name: 'Echo Bot' });
    expect(
      within(group)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual([
      '/echo Says it back',
      '/ping Pong',
      '/config set Set one',
      '/config show Show them',
      '/find Finds',
    ]);
    const box = screen.getByRole('textbox', { name: 'Message #general' });
    await user.type(box, 's');
    // "s" starts a word of "config set" and "config show" only.
    expect(
      within(listbox)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['/config set Set one', '/config show Show them']);
    const [first, second] = within(listbox).getAllByRole('option');
    expect(first?.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(first?.id);
    await user.keyboard('{ArrowDown}');
    expect(second?.getAttribute('aria-selected')).toBe('true');
    expect(box.getAttribute('aria-activedescendant')).toBe(second?.id);
    await user.keyboard('{ArrowDown}');
    expect(first?.getAttribute('aria-selected')).toBe('true');
    await user.keyboard('{ArrowUp}{Enter}');
    expect(await screen.findByRole('form', { name: '/config show' })).toBeDefined();
    expect(onDone).not.toHaveBeenCalled();
  });

  it('gives the plain composer back on Escape', async () => {
    api();
    const user = userEvent.setup();
    const { onDone } = await open();
    await user.keyboard('{Escape}');
    expect(onDone).toHaveBeenCalledOnce();
  });
});

describe('CommandComposer: options', () => {
  it('enforces required options, lengths and ranges, then sends the typed options', async () => {
    const requests = api();
    const user = userEvent.setup();
    const { socket, onDone, outerSubmit } = await open('/ec');
    await user.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: '/echo' });
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    expect(await within(form).findByText('This option is required.')).toBeDefined();
    expect(within(form).getByLabelText('text (required)').getAttribute('aria-invalid')).toBe(
      'true',
    );

    await user.type(within(form).getByLabelText('text (required)'), 'hello!');
    await user.type(within(form).getByLabelText('times'), '7');
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    // The field takes at most max_length characters; the range is checked on send.
    expect(within(form).getByLabelText('text (required)')).toHaveProperty('value', 'hello');
    expect(await within(form).findByText('At most 3.')).toBeDefined();
    await user.clear(within(form).getByLabelText('times'));
    await user.type(within(form).getByLabelText('times'), '1.5');
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    expect(await within(form).findByText('Enter a whole number.')).toBeDefined();
    expect(interactionsSent(requests)).toEqual([]);

    await user.clear(within(form).getByLabelText('text (required)'));
    await user.type(within(form).getByLabelText('text (required)'), 'hi{Enter}');
    // Enter in a field sends the form: still refused for "times".
    expect(interactionsSent(requests)).toEqual([]);
    await user.clear(within(form).getByLabelText('times'));
    await user.type(within(form).getByLabelText('times'), '2');
    await user.selectOptions(within(form).getByLabelText('tone'), 'Soft');
    await user.click(within(form).getByRole('button', { name: 'Send' }));

    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(1);
    });
    const [sent] = interactionsSent(requests);
    expect(sent).toEqual({
      type: 2,
      application_id: '900',
      guild_id: GUILD_ID,
      channel_id: CHANNEL.id,
      session_id: 'session-1',
      nonce: expect.any(String) as string,
      data: {
        id: '950',
        name: 'echo',
        type: 1,
        options: [
          { type: 3, name: 'text', value: 'hi' },
          { type: 4, name: 'times', value: 2 },
          { type: 3, name: 'tone', value: 'soft' },
        ],
      },
    });
    expect(sent?.nonce.length).toBeLessThanOrEqual(25);
    expect(await screen.findByText('Echo Bot is thinking…')).toBeDefined();
    // Another interaction's outcome changes nothing here.
    act(() => {
      socket.dispatch('INTERACTION_SUCCESS', { id: '1', nonce: 'not-mine' });
    });
    expect(onDone).not.toHaveBeenCalled();
    act(() => {
      socket.dispatch('INTERACTION_SUCCESS', { id: '2', nonce: sent?.nonce });
    });
    await waitFor(() => {
      expect(onDone).toHaveBeenCalledOnce();
    });
    expect(outerSubmit).not.toHaveBeenCalled();
  });

  it('nests a subcommand and says when the app did not respond', async () => {
    const requests = api();
    const user = userEvent.setup();
    const { socket, onDone } = await open('/config se');
    await user.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: '/config set' });
    await user.selectOptions(within(form).getByLabelText('on (required)'), 'False');
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(1);
    });
    const [sent] = interactionsSent(requests);
    expect(sent?.data).toEqual({
      id: '952',
      name: 'config',
      type: 1,
      options: [{ type: 1, name: 'set', options: [{ type: 5, name: 'on', value: false }] }],
    });
    act(() => {
      socket.dispatch('INTERACTION_FAILURE', { id: '3', nonce: sent?.nonce });
    });
    expect(await within(form).findByRole('alert')).toHaveProperty(
      'textContent',
      'The application did not respond',
    );
    expect(onDone).not.toHaveBeenCalled();
  });

  it('gives up waiting when a new gateway session starts (its outcome will never come)', async () => {
    const requests = api();
    const user = userEvent.setup();
    const { socket } = await open('/ping');
    await user.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: '/ping' });
    await user.click(within(form).getByRole('button', { name: 'Send' }));
    await waitFor(() => {
      expect(interactionsSent(requests)).toHaveLength(1);
    });
    act(() => {
      socket.dispatch('READY', {
        v: 10,
        user: ME,
        session_id: 'session-2',
        resume_gateway_url: 'ws://gateway.test',
        guilds: [],
        private_channels: [],
      });
    });
    expect(await within(form).findByRole('alert')).toHaveProperty(
      'textContent',
      'The application did not respond',
    );
  });

  it("shows the API's refusal", async () => {
    api((request) =>
      request.path === '/interactions'
        ? { status: 403, body: { code: 50001, message: 'Missing Access' } }
        : undefined,
    );
    const user = userEvent.setup();
    await open('/ping');
    await user.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: '/ping' });
    await user.keyboard('{Enter}');
    expect(await within(form).findByRole('alert')).toHaveProperty('textContent', 'Missing Access');
  });
});

describe('CommandComposer: autocomplete', () => {
  it('asks once typing pauses and shows only the answer to the latest request', async () => {
    const requests = api();
    const user = userEvent.setup();
    const { socket } = await open('/find');
    await user.keyboard('{Enter}');
    const form = await screen.findByRole('form', { name: '/find' });
    await user.type(within(form).getByLabelText('query (required)'), 'ab');
    await waitFor(() => {
      expect(interactionsSent(requests).filter((b) => b['type'] === 4)).toHaveLength(1);
    });
    // Typing two characters within the debounce asked once, with what was typed, focused.
    const first = interactionsSent(requests).find((b) => b['type'] === 4);
    expect(first?.data).toEqual({
      id: '953',
      name: 'find',
      type: 1,
      options: [{ type: 3, name: 'query', value: 'ab', focused: true }],
    });
    await user.type(within(form).getByLabelText('query (required)'), 'c');
    await waitFor(() => {
      expect(interactionsSent(requests).filter((b) => b['type'] === 4)).toHaveLength(2);
    });
    const second = interactionsSent(requests).filter((b) => b['type'] === 4)[1];
    expect(second?.nonce).not.toBe(first?.nonce);
    // The answer to the stale request is ignored; the latest one is shown.
    act(() => {
      socket.dispatch('APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE', {
        id: '4',
        nonce: first?.nonce,
        choices: [{ name: 'Stale', value: 'stale' }],
      });
    });
    expect(within(form).queryByRole('button', { name: 'Stale' })).toBeNull();
    act(() => {
      socket.dispatch('APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE', {
        id: '5',
        nonce: second?.nonce,
        choices: [{ name: 'Abc record', value: 'abc-1' }],
      });
    });
    const list = within(form).getByRole('list', { name: 'query suggestions' });
    await user.click(within(list).getByRole('button', { name: 'Abc record' }));
    expect(within(form).getByLabelText('query (required)')).toHaveProperty('value', 'abc-1');
  });
});
