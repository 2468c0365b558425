import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useProvisionalFixture, type TokenBody } from '../../../test/support/provisionalFixture.js';

describeDrivers('lobby memberships across provisional merge and unmerge on $driver', (driver) => {
  const fx = useProvisionalFixture(driver);
  const { call, bot, botToken, me, person, merge, identity } = fx;
  const EXTERNAL = 'player-7';

  it('moves the provisional account’s lobbies to the full account, and back on unmerge', async () => {
    const issued = (await botToken(EXTERNAL)).json<TokenBody>();
    const provisionalAuth = `Bearer ${issued.access_token}`;
    const provisionalId = (await me(issued.access_token)).json<{ id: string }>().id;
    const joined = await call('PUT', '/lobbies', {
      auth: provisionalAuth,
      payload: { secret: 'squad', member_metadata: { rank: 'gold' } },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    const lobbyId = joined.json<{ id: string }>().id;
    const lobbies = fx.server.app.storage.lobbies;

    const full = await person('seven');
    await merge(full, { type: 'DISCORD_BOT_ISSUED_ACCESS_TOKEN', token: issued.access_token });
    expect(await lobbies.listMembers(lobbyId)).toEqual([
      expect.objectContaining({ userId: full, metadata: { rank: 'gold' } }),
    ]);
    expect(await lobbies.findMember(lobbyId, provisionalId)).toBeNull();

    const unmerged = await call('POST', '/partner-sdk/provisional-accounts/unmerge/bot', {
      auth: bot(),
      payload: { external_user_id: EXTERNAL },
    });
    expect(unmerged.statusCode, unmerged.body).toBe(204);
    const back = await identity(EXTERNAL, 'DISCORD_BOT_ISSUED_ACCESS_TOKEN');
    expect(back?.provisional).toBe(true);
    expect((await lobbies.listMembers(lobbyId)).map((m) => m.userId)).toEqual([back?.userId]);
    expect(await lobbies.findMember(lobbyId, full)).toBeNull();
  });
});
