import { GatewayIntentBits as I } from '@guildhall/protocol';
import { uniqueName } from './support/fileServer.js';
import { describe, expect, it } from 'vitest';
import { useGatewayFixture } from './support/gatewayFixture.js';
import { apiRequest } from './support/inject.js';

describe('gateway: relationship events reach the people they concern', () => {
  const gw = useGatewayFixture();

  it('sends RELATIONSHIP_ADD, _UPDATE and _REMOVE to a session of each side', async () => {
    const { client } = await gw.identify({ token: gw.guild.owner.token, intents: I.GUILDS });
    const bot = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS });
    const friendName = uniqueName('friend');
    const other = await gw.server.app.services.auth.register({
      email: `${friendName}@example.test`,
      username: friendName,
      password: 'correct horse battery',
    });
    const call = (
      method: 'PUT' | 'PATCH' | 'DELETE',
      auth: string,
      { id, payload = {} }: { id: string; payload?: object },
    ) => apiRequest(gw.server.app, `${method} /users/@me/relationships/${id}`, { auth, payload });
    const ownerId = gw.guild.owner.userId;
    expect((await call('PUT', other.token, { id: ownerId })).statusCode).toBe(204);
    const added = await client.next((f) => f.t === 'RELATIONSHIP_ADD', 10_000);
    // A brand-new account sharing no guild with the owner: flagged as a spam request.
    expect(added.d).toMatchObject({
      id: other.user_id,
      type: 3,
      user: { id: other.user_id, username: friendName },
      nickname: null,
      is_spam_request: true,
    });
    expect(added.d).not.toHaveProperty('application_id');

    await call('PUT', gw.guild.owner.token, { id: other.user_id });
    const accepted = await client.next(
      (f) => f.t === 'RELATIONSHIP_ADD' && (f.d as { type: number }).type === 1,
      10_000,
    );
    expect(accepted.d).toMatchObject({ id: other.user_id, is_spam_request: false });
    await call('PATCH', gw.guild.owner.token, { id: other.user_id, payload: { nickname: 'pal' } });
    const updated = await client.next((f) => f.t === 'RELATIONSHIP_UPDATE', 10_000);
    expect(updated.d).toMatchObject({ id: other.user_id, nickname: 'pal' });
    await call('DELETE', other.token, { id: ownerId });
    const removed = await client.next((f) => f.t === 'RELATIONSHIP_REMOVE', 10_000);
    expect(removed.d).toMatchObject({ id: other.user_id, type: 1 });
    // The bot's session hears none of it.
    expect(bot.client.frames.some((f) => f.t?.startsWith('RELATIONSHIP_') === true)).toBe(false);
  });

  it("shows a person's friends and DMs in their session's READY, and a bot's none", async () => {
    const palName = uniqueName('pal');
    const friend = await gw.server.app.services.auth.register({
      email: `${palName}@example.test`,
      username: palName,
      password: 'correct horse battery',
    });
    const owner = gw.guild.owner;
    const inject = (route: string, auth: string, payload: object) =>
      apiRequest(gw.server.app, route, { auth, payload });
    await inject(`PUT /users/@me/relationships/${friend.user_id}`, owner.token, {});
    await inject(`PUT /users/@me/relationships/${owner.userId}`, friend.token, {});
    const dm = await inject('POST /users/@me/channels', owner.token, {
      recipient_id: friend.user_id,
    });
    expect(dm.statusCode).toBe(200);
    const dmId = dm.json<{ id: string }>().id;

    const { ready } = await gw.identify({ token: owner.token, intents: I.GUILDS });
    expect(ready['relationships']).toMatchObject([
      { id: friend.user_id, type: 1, user: { username: palName } },
    ]);
    expect(ready['private_channels']).toMatchObject([
      { id: dmId, type: 1, recipients: [{ id: friend.user_id }] },
    ]);
    expect(ready['lobbies']).toBeUndefined();

    const bot = await gw.identify({ token: gw.guild.bot.token, intents: I.GUILDS });
    expect(bot.ready['relationships']).toEqual([]);
    expect(bot.ready['private_channels']).toEqual([]);
  });
});
