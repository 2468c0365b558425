/**
 * SET_ACTIVITY without a browser: what the embedded app SDK's own `setActivity` input type
 * allows is published (gateway op 3) and answered, the answer parsed by the SDK's own response
 * schema; the flags the platform sets (EMBEDDED, and JOIN and INSTANCE from what the activity
 * holds); what the SDK's input has no place for is dropped, and what the gateway would refuse is
 * refused with the SDK's error shape before it is published.
 */
import { RPCErrorCodes, type CommandInput } from '@discord/embedded-app-sdk';
import { ActivityFlags } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { APP, harness, sdkParses } from './frameHarness.js';

/** SET_ACTIVITY's arguments, as the SDK's `commands.setActivity` types them. */
type SetActivityArgs = CommandInput<'setActivity'>[0];

async function authenticated() {
  const h = harness();
  h.handshake();
  await h.send('AUTHENTICATE', { access_token: 'good' });
  return h;
}

describe('SET_ACTIVITY', () => {
  it('publishes and answers every field the SDK takes, with the platform’s flags', async () => {
    const { send, presences } = await authenticated();
    const args = {
      activity: {
        type: 0,
        state: 'In a match',
        state_url: 'https://tiles.example/match/7',
        details: 'Round 2',
        details_url: 'https://tiles.example/round/2',
        timestamps: { start: 5, end: 9 },
        assets: {
          large_image: 'board',
          large_text: 'The board',
          large_url: 'https://tiles.example/board',
          small_image: 'ada',
          small_text: 'Ada',
          small_url: 'https://tiles.example/ada',
        },
        party: { id: 'party-1', size: [1, 4] },
        secrets: { join: 'the-join-secret', match: 'the-match-secret' },
        instance: true,
      },
    } satisfies SetActivityArgs;
    const published = {
      ...args.activity,
      name: 'Tiles',
      application_id: APP,
      created_at: 1_000,
      flags: ActivityFlags.EMBEDDED | ActivityFlags.INSTANCE | ActivityFlags.JOIN,
    };
    const answer = await send('SET_ACTIVITY', { ...args });
    expect(presences).toEqual([published]);
    expect(sdkParses(answer).data).toEqual(published);
  });

  it('drops a spectate secret: the SDK’s input has none (embedded apps are not spectated)', async () => {
    const { send, presences } = await authenticated();
    // @ts-expect-error The SDK's SetActivityInput has no `secrets.spectate`.
    const args: SetActivityArgs = { activity: { secrets: { join: 'j', spectate: 's' } } };
    const answer = await send('SET_ACTIVITY', { ...args });
    const published = {
      name: 'Tiles',
      type: 0,
      application_id: APP,
      created_at: 1_000,
      secrets: { join: 'j' },
      flags: ActivityFlags.EMBEDDED | ActivityFlags.JOIN,
    };
    expect(presences).toEqual([published]);
    expect(sdkParses(answer).data).toEqual(published);
  });

  it.each([
    ['state_url', { state_url: 'ftp://tiles.example' }],
    ['details_url', { details_url: 'not a url' }],
    ['assets.large_url', { assets: { large_url: `https://e.x/${'a'.repeat(250)}` } }],
    ['assets.small_url', { assets: { small_url: 'javascript:alert(1)' } }],
  ] as const)('refuses a bad %s with INVALID_PAYLOAD, publishing nothing', async (name, bad) => {
    const { send, presences } = await authenticated();
    const args: SetActivityArgs = { activity: bad };
    const answer = await send('SET_ACTIVITY', { ...args });
    expect(answer).toEqual({
      cmd: 'SET_ACTIVITY',
      evt: 'ERROR',
      nonce: answer['nonce'],
      data: {
        code: RPCErrorCodes.INVALID_PAYLOAD,
        message: `activity.${name} must be an http or https URL of at most 256 characters`,
      },
    });
    expect(presences).toEqual([]);
  });
});
