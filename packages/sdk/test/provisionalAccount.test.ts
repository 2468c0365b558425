/**
 * From the provisional-accounts guide: `updateProvisionalAccountDisplayName` and
 * `setTokenExpirationCallback`, through the SDK's Node build against a real server whose clock
 * the test sets (a token minted "7 days ago" is about to expire).
 */
import { expect, it } from 'vitest';
import { manualClock } from '../../server/src/domain/clock.js';
import {
  AuthorizationTokenType,
  LoggingSeverity,
  SdkError,
  TOKEN_EXPIRY_NOTICE_MS,
} from '../src/node.js';
import { describeDrivers, eventually, useSdkWorld } from './support.js';

const DAY_MS = 24 * 3600 * 1000;

describeDrivers('SDK provisional account upkeep ($driver)', (driver) => {
  const clock = manualClock(Date.now());
  const world = useSdkWorld(driver, { clock });

  it('updateProvisionalAccountDisplayName renames the player; refusals keep the codes', async () => {
    clock.set(Math.max(clock.now(), Date.now()));
    const player = await world().player('Before');
    const client = await world().readyClient(player);
    await client.updateProvisionalAccountDisplayName('After');
    expect(client.getCurrentUserV2()?.displayName()).toBe('After');
    const me = await world().api<{ global_name: string }>('GET', '/users/@me', {
      auth: `Bearer ${player.token}`,
    });
    expect(me.body.global_name).toBe('After');
    await expect(client.updateProvisionalAccountDisplayName('')).rejects.toBeInstanceOf(SdkError);

    const full = await world().server.app.services.oauth.issueTokens({
      userId: world().dev.userId,
      applicationId: world().dev.applicationId,
      scopes: ['identify', 'account.global_name.update'],
      refresh: false,
    });
    const person = await world().client();
    await person.updateToken(AuthorizationTokenType.Bearer, full.access_token);
    await expect(person.updateProvisionalAccountDisplayName('Mine')).rejects.toMatchObject({
      code: 530010,
      status: 400,
    });
  });

  it('setTokenExpirationCallback: once for a token about to expire or refused, not for a fresh one', async () => {
    const now = Math.max(clock.now(), Date.now());
    // Minted 7 days less a minute ago: it expires within the notice.
    clock.set(now - 7 * DAY_MS + 60_000);
    const old = await world().player('Old');
    clock.set(now);
    const fresh = await world().player('Fresh');

    const client = await world().client(fresh);
    const lines: string[] = [];
    client.addLogCallback((message) => lines.push(message), LoggingSeverity.Info);
    let expired = 0;
    client.setTokenExpirationCallback(() => {
      expired += 1;
    });
    // The fresh token's notice is armed days from now: nothing yet.
    await eventually(
      () => lines.find((l) => l.includes('the expiration callback runs in')),
      'the notice armed',
    );
    const armed = lines.find((l) => l.includes('the expiration callback runs in')) ?? '';
    const seconds = Number(/runs in (\d+) s/.exec(armed)?.[1]);
    expect(seconds * 1000).toBeGreaterThan(6 * DAY_MS - TOKEN_EXPIRY_NOTICE_MS);
    expect(expired).toBe(0);

    await client.updateToken(AuthorizationTokenType.Bearer, old.token);
    await eventually(() => (expired === 1 ? true : undefined), 'the first notice');
    await client.updateToken(AuthorizationTokenType.Bearer, 'not-a-token');
    await eventually(() => (expired === 2 ? true : undefined), 'the refused token');
    // Null stops the notices.
    client.setTokenExpirationCallback(null);
    await client.updateToken(AuthorizationTokenType.Bearer, old.token);
    expect(expired).toBe(2);
  });
});
