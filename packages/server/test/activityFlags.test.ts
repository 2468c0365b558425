/**
 * An activity's flags as everyone sees it (docs/gateway.md, docs/platform-notes.md#activity-flags):
 * op 3 sets JOIN for a join secret, SPECTATE for a spectate secret, INSTANCE for `instance: true`
 * and both PARTY_PRIVACY bits for a public party, and clears them when the activity does not
 * hold what they say; other bits the client sent stay. A friend (PRESENCE_UPDATE, READY), a
 * guild's watcher and the player's own client all see the same flags, and never a secret.
 * Through real WebSockets on both storage drivers.
 *
 * @module
 */
import { ActivityFlags as F, ApplicationFlags, GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import type { GatewayClient } from './support/gatewayClient.js';
import { describeDrivers } from './support/drivers.js';
import { tinyTanks, useActivityGames } from './support/activityParties.js';

type Shown = Record<string, unknown> & { party?: { id: string } };

/** The activities of the first PRESENCE_UPDATE about `userId` a client got after frame `seq`. */
async function presenceOf(client: GatewayClient, userId: string, seq = 0): Promise<Shown[]> {
  const frame = await client.next(
    (f) =>
      f.t === 'PRESENCE_UPDATE' &&
      (f.s ?? 0) > seq &&
      (f.d as { user: { id: string } }).user.id === userId,
  );
  return (frame.d as { activities: Shown[] }).activities;
}

const flagsOf = (activities: Shown[], partyId: string) =>
  activities.find((a) => a.party?.id === partyId)?.['flags'];

describeDrivers('activity flags ($driver)', (driver) => {
  const games = useActivityGames(driver);
  const { gw, accessToken, befriend } = games;

  it('are set from what the activity holds, for friends, guilds and the player alike', async () => {
    const player = await gw.guild.join('player');
    const friend = await gw.guild.join('friend');
    await befriend(friend.userId, player.userId);
    const friendClient = (await gw.identify({ token: friend.token, intents: 0 })).client;
    await gw.server.app.storage.applications.update(gw.guild.bot.applicationId, {
      flags: ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
    });
    const watcher = (await gw.session({ intents: I.GUILDS | I.GUILD_PRESENCES })).client;
    const own = (await gw.session({ token: player.token, intents: I.GUILDS | I.GUILD_PRESENCES }))
      .client;
    const game = (await gw.identify({ token: await accessToken(player.userId) })).client;
    game.send(3, {
      status: 'online',
      since: null,
      afk: false,
      activities: [
        { ...tinyTanks('party-1', 1, { join: 'j-secret', spectate: 's-secret' }), instance: true },
        // Flags the activity does not hold are cleared; EMBEDDED is the client's to say.
        { ...tinyTanks('party-2', 0, {}), flags: F.JOIN | F.SPECTATE | F.INSTANCE | F.EMBEDDED },
        tinyTanks('party-3', 0, { join: 'j3-secret' }),
        tinyTanks('party-4', 1, { match: 'm-secret' }),
      ],
    });
    const expected = {
      'party-1':
        F.INSTANCE | F.JOIN | F.SPECTATE | F.PARTY_PRIVACY_FRIENDS | F.PARTY_PRIVACY_VOICE_CHANNEL,
      'party-2': F.EMBEDDED,
      'party-3': F.JOIN,
      'party-4': F.PARTY_PRIVACY_FRIENDS | F.PARTY_PRIVACY_VOICE_CHANNEL,
    };
    for (const client of [friendClient, watcher, own]) {
      const shown = await presenceOf(client, player.userId);
      for (const [partyId, flags] of Object.entries(expected)) {
        expect({ partyId, flags: flagsOf(shown, partyId) }).toEqual({ partyId, flags });
      }
      expect(JSON.stringify(shown)).not.toContain('secret');
    }

    // A later READY of the friend shows the same flags.
    const again = await gw.identify({ token: friend.token, intents: 0 });
    const presences = again.ready['presences'] as { activities: Shown[] }[];
    const shown = presences.flatMap((p) => p.activities);
    expect(flagsOf(shown, 'party-3')).toBe(F.JOIN);
    expect(JSON.stringify(shown)).not.toContain('secret');

    // The secrets go: so do their flags.
    const seen = gw.lastSeq(friendClient);
    game.send(3, {
      status: 'online',
      since: null,
      afk: false,
      activities: [tinyTanks('party-1', 0, {})],
    });
    const cleared = await presenceOf(friendClient, player.userId, seen);
    expect(cleared).toHaveLength(1);
    expect(cleared[0]).not.toHaveProperty('flags');
  });
});
