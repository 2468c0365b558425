/**
 * The activity dock in jsdom: messages are taken only from the frame's window on the activity
 * origin and answered only to that origin; the frame's address carries the proxy ticket;
 * AUTHORIZE shows the consent and sends the decision; Leave Activity leaves.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ActivityDock } from './ActivityFrame.js';
import type { ActivityInstance } from './api.js';
import { initialActivities } from './state.js';
import { fakeApi, renderInClient, socialState } from '../social/testing.js';

const ORIGIN = 'http://500.activities.localhost:8080';
const INSTANCE: ActivityInstance = {
  application_id: '500',
  instance_id: 'i-900-pc-2',
  launch_id: '900',
  location: { id: 'pc-2', kind: 'pc', channel_id: '2' },
  users: ['10'],
  participants: [
    { id: '10', username: 'ada', global_name: null, avatar: null, discriminator: '0' },
  ],
  launched_by: '10',
  ended: false,
  activity_origin: ORIGIN,
};
const TICKET = 'eyJhIjoxfQ.c2ln';
const SHELF = {
  applications: [{ id: '500', name: 'Tiles', icon: null, description: '' }],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function renderDock(routes: Parameters<typeof fakeApi>[0] = {}) {
  const calls = fakeApi({
    'GET /channels/2/activity-shelf': { status: 200, body: SHELF },
    'POST /applications/500/proxy-tickets': { status: 200, body: { ticket: TICKET } },
    ...routes,
  });
  const rendered = renderInClient(<ActivityDock />, {
    path: '/channels/@me/2',
    state: socialState({
      activities: {
        ...initialActivities,
        instances: { [INSTANCE.instance_id]: INSTANCE },
        open: INSTANCE.instance_id,
      },
    }),
  });
  return { ...rendered, calls };
}

/** The frame's window, with its postMessage recorded. */
async function frame() {
  const iframe = await screen.findByTitle('Tiles');
  const win = (iframe as HTMLIFrameElement).contentWindow;
  if (win === null) throw new Error('no frame window');
  const posted = vi.spyOn(win, 'postMessage').mockImplementation(() => undefined);
  return { iframe: iframe as HTMLIFrameElement, win, posted };
}

function fromFrame(data: unknown, origin: string, source: Window) {
  act(() => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
  });
}

describe('ActivityDock', () => {
  it('frames the relay on the activity origin with the SDK query', async () => {
    renderDock();
    const { iframe } = await frame();
    const src = new URL(iframe.src);
    expect(src.origin).toBe(ORIGIN);
    expect(src.pathname).toBe('/.guildhall/frame');
    expect(Object.fromEntries(src.searchParams)).toMatchObject({
      instance_id: INSTANCE.instance_id,
      channel_id: '2',
      platform: 'desktop',
      client_origin: window.location.origin,
      discord_proxy_ticket: TICKET,
    });
    expect(iframe.getAttribute('sandbox')).not.toContain('allow-top-navigation');
  });

  it('frames the activity without a ticket when none can be had', async () => {
    const { calls } = renderDock({
      'POST /applications/500/proxy-tickets': { status: 400, body: { code: 50035 } },
    });
    const { iframe } = await frame();
    expect(calls.some((c) => c.path === '/applications/500/proxy-tickets')).toBe(true);
    expect(new URL(iframe.src).searchParams.has('discord_proxy_ticket')).toBe(false);
    expect(new URL(iframe.src).searchParams.get('instance_id')).toBe(INSTANCE.instance_id);
  });

  it('answers only its frame on the activity origin, and only to that origin', async () => {
    renderDock();
    const { iframe, win, posted } = await frame();
    const frameId = new URL(iframe.src).searchParams.get('frame_id');
    const handshake = [0, { v: 1, encoding: 'json', client_id: '500', frame_id: frameId }];
    fromFrame(handshake, 'http://evil.localhost', win);
    fromFrame(handshake, ORIGIN, window);
    expect(posted).not.toHaveBeenCalled();
    fromFrame(handshake, ORIGIN, win);
    expect(posted).toHaveBeenCalledWith(
      [1, expect.objectContaining({ cmd: 'DISPATCH', evt: 'READY' })],
      ORIGIN,
    );
  });

  it('AUTHORIZE shows the consent and sends the decision', async () => {
    const { calls } = renderDock({
      'GET /oauth2/authorize/local': {
        status: 200,
        body: {
          application: { id: '500', name: 'Tiles', icon: null, description: '' },
          scopes: ['identify'],
          authorized: false,
        },
      },
      'POST /oauth2/authorize/local': { status: 200, body: { code: 'c0de', state: null } },
    });
    const { iframe, win, posted } = await frame();
    const frameId = new URL(iframe.src).searchParams.get('frame_id');
    fromFrame([0, { v: 1, client_id: '500', frame_id: frameId }], ORIGIN, win);
    fromFrame(
      [
        1,
        {
          cmd: 'AUTHORIZE',
          nonce: 'n1',
          args: { client_id: '500', scope: ['identify'], prompt: 'none' },
        },
      ],
      ORIGIN,
      win,
    );
    const consent = await screen.findByRole('dialog', {
      name: 'Tiles wants to access your account',
    });
    expect(consent.textContent).toContain('identify');
    await userEvent.click(screen.getByRole('button', { name: 'Authorize' }));
    await waitFor(() => {
      expect(posted).toHaveBeenCalledWith(
        [1, { cmd: 'AUTHORIZE', evt: null, nonce: 'n1', data: { code: 'c0de' } }],
        ORIGIN,
      );
    });
    // Not authorized before: the consent was shown, so no prompt=none on the decision.
    expect(
      calls.find((c) => c.path === '/oauth2/authorize/local' && c.method === 'POST')?.body,
    ).toEqual({
      client_id: '500',
      scope: 'identify',
      response_type: 'code',
      authorize: 'true',
    });
  });

  it('Leave Activity leaves the instance and closes the frame', async () => {
    const { calls, store } = renderDock({
      [`DELETE /channels/2/activity-instances/${INSTANCE.instance_id}/participants/@me`]: {
        status: 204,
      },
    });
    await frame();
    await userEvent.click(screen.getByRole('button', { name: 'Leave Activity' }));
    await waitFor(() => {
      expect(store.get().activities.open).toBeNull();
    });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(true);
    expect(screen.queryByTitle('Tiles')).toBeNull();
  });
});
