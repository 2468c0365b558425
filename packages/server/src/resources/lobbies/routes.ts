import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { GuildParams } from '../../http/schemas.js';
import { parseInput } from '../../http/validate.js';
import {
  BulkMembersBody,
  ChannelLinkBody,
  CreateLobbyBody,
  CreateOrJoinBody,
  EditMessageBody,
  ListMessagesQuery,
  LobbyMemberParams,
  LobbyMessageParams,
  LobbyParams,
  ModerationBody,
  ModifyLobbyBody,
  PutMemberBody,
  SendMessageBody,
} from './schemas.js';
import type { LobbyService } from './service.js';

const BOT = { config: { auth: ['bot'] } } as const;
/** SDK clients: OAuth2 Bearer tokens with sdk.social_layer (checked by the service). */
const SDK = { config: { auth: ['bearer'] } } as const;
const BOT_OR_SDK = { config: { auth: ['bot', 'bearer'] } } as const;

/** The 15 lobby operations, and Guildhall's edit and delete of a message (docs/lobbies.md). */
export function registerLobbyRoutes(app: FastifyInstance, lobbies: LobbyService): void {
  const lobbyId = (params: unknown) => parseInput(LobbyParams, params).lobby_id;

  app.post('/lobbies', BOT, async (request, reply) => {
    const input = parseInput(CreateLobbyBody, request.body ?? {});
    return reply.status(201).send(await lobbies.create(principalOf(request), input));
  });

  // Guildhall's own: a guild's channels for picking one to link (docs/lobbies.md).
  app.get('/users/@me/guilds/:guild_id/channels', SDK, (request) =>
    lobbies.guilds.listChannels(
      principalOf(request),
      parseInput(GuildParams, request.params).guild_id,
    ),
  );

  app.put('/lobbies', BOT_OR_SDK, (request) =>
    lobbies.createOrJoin(principalOf(request), parseInput(CreateOrJoinBody, request.body ?? {})),
  );

  app.get('/lobbies/:lobby_id', BOT, (request) =>
    lobbies.get(principalOf(request), lobbyId(request.params)),
  );

  app.patch('/lobbies/:lobby_id', BOT, (request) =>
    lobbies.modify(
      principalOf(request),
      lobbyId(request.params),
      parseInput(ModifyLobbyBody, request.body ?? {}),
    ),
  );

  app.delete('/lobbies/:lobby_id', BOT, async (request, reply) => {
    await lobbies.delete(principalOf(request), lobbyId(request.params));
    return reply.status(204).send();
  });

  app.delete('/lobbies/:lobby_id/members/@me', SDK, async (request, reply) => {
    await lobbies.members.leave(principalOf(request), lobbyId(request.params));
    return reply.status(204).send();
  });

  app.put('/lobbies/:lobby_id/members/:user_id', BOT, (request) => {
    const params = parseInput(LobbyMemberParams, request.params);
    return lobbies.members.put(
      principalOf(request),
      { lobbyId: params.lobby_id, userId: params.user_id },
      parseInput(PutMemberBody, request.body ?? {}),
    );
  });

  app.delete('/lobbies/:lobby_id/members/:user_id', BOT, async (request, reply) => {
    const params = parseInput(LobbyMemberParams, request.params);
    await lobbies.members.remove(principalOf(request), params.lobby_id, params.user_id);
    return reply.status(204).send();
  });

  app.post('/lobbies/:lobby_id/members/bulk', BOT, (request) =>
    lobbies.members.bulk(
      principalOf(request),
      lobbyId(request.params),
      parseInput(BulkMembersBody, request.body),
    ),
  );

  app.patch('/lobbies/:lobby_id/channel-linking', SDK, (request) => {
    const body = parseInput(ChannelLinkBody, request.body ?? {});
    return lobbies.links.link(
      principalOf(request),
      lobbyId(request.params),
      body.channel_id ?? null,
    );
  });

  app.post('/lobbies/:lobby_id/members/@me/invites', SDK, (request) =>
    lobbies.links.inviteSelf(principalOf(request), lobbyId(request.params)),
  );

  app.post('/lobbies/:lobby_id/members/:user_id/invites', BOT, (request) => {
    const params = parseInput(LobbyMemberParams, request.params);
    return lobbies.links.inviteUser(principalOf(request), params.lobby_id, params.user_id);
  });

  app.post('/lobbies/:lobby_id/messages', SDK, async (request, reply) => {
    const input = parseInput(SendMessageBody, request.body ?? {});
    const message = await lobbies.messages.send(
      principalOf(request),
      lobbyId(request.params),
      input,
    );
    return reply.status(201).send(message);
  });

  app.get('/lobbies/:lobby_id/messages', SDK, (request) =>
    lobbies.messages.list(
      principalOf(request),
      lobbyId(request.params),
      parseInput(ListMessagesQuery, request.query).limit,
    ),
  );

  // Guildhall's own: the platform documents no edit or delete of a lobby message.
  app.patch('/lobbies/:lobby_id/messages/:message_id', SDK, (request) => {
    const params = parseInput(LobbyMessageParams, request.params);
    return lobbies.messages.edit(
      principalOf(request),
      { lobbyId: params.lobby_id, messageId: params.message_id },
      parseInput(EditMessageBody, request.body ?? {}),
    );
  });

  app.delete('/lobbies/:lobby_id/messages/:message_id', BOT_OR_SDK, async (request, reply) => {
    const params = parseInput(LobbyMessageParams, request.params);
    await lobbies.messages.remove(principalOf(request), {
      lobbyId: params.lobby_id,
      messageId: params.message_id,
    });
    return reply.status(204).send();
  });

  app.put(
    '/lobbies/:lobby_id/messages/:message_id/moderation-metadata',
    BOT,
    async (request, reply) => {
      const params = parseInput(LobbyMessageParams, request.params);
      await lobbies.messages.putModeration(
        principalOf(request),
        { lobbyId: params.lobby_id, messageId: params.message_id },
        parseInput(ModerationBody, request.body ?? {}),
      );
      return reply.status(204).send();
    },
  );
}
