import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { APIMessage } from 'discord-api-types/v10';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setToken } from '../../lib/session.js';
import { AppsMenuItems } from './AppsMenu.js';
import { InteractionHeader } from './MessageAppParts.js';
import { ModalHost } from './ModalHost.js';
import {
  CHANNEL,
  commandIndex,
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

const BOB = { id: '101', username: 'bob', global_name: null, discriminator: '0', avatar: null };
const INDEX = commandIndex([
  { name: 'echo', description: 'Slash' },
  { name: 'Show Profile', type: 2, description: '' },
  { name: 'Quote', type: 3, description: '' },
]);

describe('AppsMenuItems', () => {
  it('invokes a user command on its target and reports an app that did not respond', async () => {
    const requests = stubApi((request) =>
      request.path.endsWith('/application-command-index')
        ? { status: 200, body: INDEX }
        : undefined,
    );
    const user = userEvent.setup();
    const onDone = vi.fn();
    const { socket } = await renderClient(
      <>
        <div role="menu" aria-label="Member">
          <AppsMenuItems
            target={{ kind: 'user', user: BOB }}
            channel={TEXT_CHANNEL}
            onDone={onDone}
          />
        </div>
        <ModalHost />
      </>,
    );
    const item = await screen.findByRole('menuitem', { name: /Show Profile/ });
    // Only USER commands for a member; the message command and the slash command are not here.
    expect(screen.getAllByRole('menuitem')).toHaveLength(1);
    await user.click(item);
    await waitFor(() => {
      expect(onDone).toHaveBeenCalledOnce();
    });
    const [sent] = interactionsSent(requests);
    expect(sent).toMatchObject({
      type: 2,
      application_id: '900',
      guild_id: GUILD_ID,
      channel_id: CHANNEL.id,
      session_id: 'session-1',
      data: { id: '951', name: 'Show Profile', type: 2, target_id: BOB.id },
    });
    act(() => {
      socket.dispatch('INTERACTION_FAILURE', { id: '1', nonce: sent?.nonce });
    });
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Show Profile: The application did not respond',
    );
  });

  it('offers message commands for a message', async () => {
    stubApi((request) =>
      request.path.endsWith('/application-command-index')
        ? { status: 200, body: INDEX }
        : undefined,
    );
    const message = { id: '600', channel_id: CHANNEL.id, author: BOB, content: 'hi' };
    await renderClient(
      <AppsMenuItems
        target={{
          kind: 'message',
          message: message as unknown as APIMessage,
        }}
        channel={TEXT_CHANNEL}
        onDone={vi.fn()}
      />,
    );
    expect(await screen.findByRole('menuitem', { name: /Quote/ })).toBeDefined();
    expect(screen.queryByRole('menuitem', { name: /Show Profile/ })).toBeNull();
  });
});

describe('InteractionHeader of a command response', () => {
  it('names the command the invoker used, from the message', async () => {
    stubApi();
    const reply = {
      id: '601',
      type: 20,
      channel_id: CHANNEL.id,
      author: BOB,
      content: 'echoed',
      flags: 0,
      interaction_metadata: { id: '777', type: 2, user: ME, authorizing_integration_owners: {} },
      interaction: { id: '777', type: 2, name: 'echo', user: ME },
    };
    await renderClient(<InteractionHeader message={reply as unknown as APIMessage} />);
    expect(screen.getByText('Ann used /echo')).toBeDefined();
  });
});
