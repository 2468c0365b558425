import { describe, expect, it } from 'vitest';
import { useGatewayFixture } from '../../../test/support/gatewayFixture.js';
import { apiRequest } from '../../../test/support/inject.js';

/** A person's gateway session (a user session token) gets the lobby dispatches addressed to them. */
describe('lobby dispatches on the gateway', () => {
  const fx = useGatewayFixture();

  const api = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    apiRequest(fx.server.app, `${method} ${url}`, { auth: fx.guild.bot.token, payload });

  it('sends LOBBY_CREATE, LOBBY_MEMBER_ADD, LOBBY_MEMBER_REMOVE and LOBBY_DELETE to the members', async () => {
    const owner = fx.guild.owner;
    const { client } = await fx.identify({ token: owner.token, intents: 0 });
    const created = await api('POST', '/lobbies', { members: [{ id: owner.userId }] });
    expect(created.statusCode, created.body).toBe(201);
    const lobbyId = created.json<{ id: string }>().id;
    const create = await client.dispatch('LOBBY_CREATE');
    expect(create.d).toMatchObject({ id: lobbyId, members: [{ id: owner.userId }] });
    expect(create.d).not.toHaveProperty('override_event_webhooks_url');

    await api('PUT', `/lobbies/${lobbyId}/members/${owner.userId}`, { additional_name: 'Boss' });
    expect((await client.dispatch('LOBBY_MEMBER_UPDATE')).d).toEqual({
      lobby_id: lobbyId,
      member: { id: owner.userId, metadata: null, flags: 0, additional_name: 'Boss' },
    });
    await api('DELETE', `/lobbies/${lobbyId}/members/${owner.userId}`);
    expect((await client.dispatch('LOBBY_MEMBER_REMOVE')).d).toMatchObject({
      lobby_id: lobbyId,
      member: { id: owner.userId },
    });
    await api('PUT', `/lobbies/${lobbyId}/members/${owner.userId}`, {});
    expect((await client.dispatch('LOBBY_MEMBER_ADD')).d).toMatchObject({ lobby_id: lobbyId });
    await api('DELETE', `/lobbies/${lobbyId}`);
    expect((await client.dispatch('LOBBY_DELETE')).d).toMatchObject({ id: lobbyId });
  });
});
