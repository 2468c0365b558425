import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { CreateMessageBody, EditMessageBody } from '../messages/index.js';
import {
  AddRecipientBody,
  CreatePrivateChannelBody,
  ModerationMetadataBody,
  ModerationParams,
  RecipientParams,
  SdkMessagesQuery,
  UserMessageParams,
  UserParams,
} from './schemas.js';
import type { GroupRecipientService } from './groups.js';
import type { SdkDmService } from './sdk.js';
import type { PrivateChannelService } from './service.js';

/** The DM routes beyond /channels/{id} (which the channel routes share with guild channels). */
export function registerDmRoutes(
  app: FastifyInstance,
  services: {
    privateChannels: PrivateChannelService;
    sdkDms: SdkDmService;
    groupRecipients: GroupRecipientService;
  },
): void {
  const { privateChannels, sdkDms, groupRecipients } = services;
  const USERS = { config: { auth: ['bot', 'session', 'bearer'] } } as const;

  app.put('/channels/:channel_id/recipients/:user_id', USERS, async (request, reply) => {
    const params = parseInput(RecipientParams, request.params);
    const body = parseInput(AddRecipientBody, request.body ?? {});
    const result = await groupRecipients.add(principalOf(request), {
      channelId: params.channel_id,
      userId: params.user_id,
      accessToken: body.access_token ?? null,
      nick: body.nick ?? null,
    });
    return result.added ? reply.status(201).send(result.channel) : reply.status(204).send();
  });

  app.delete('/channels/:channel_id/recipients/:user_id', USERS, async (request, reply) => {
    const params = parseInput(RecipientParams, request.params);
    await groupRecipients.remove(principalOf(request), {
      channelId: params.channel_id,
      userId: params.user_id,
    });
    return reply.status(204).send();
  });

  app.post('/users/@me/channels', { config: { auth: ['bot', 'session', 'bearer'] } }, (request) =>
    privateChannels.create(
      principalOf(request),
      parseInput(CreatePrivateChannelBody, request.body ?? {}),
    ),
  );

  app.get('/users/@me/channels', { config: { auth: ['bot', 'session', 'bearer'] } }, (request) =>
    privateChannels.list(principalOf(request)),
  );

  app.post('/users/:user_id/messages', { config: { auth: ['bearer'] } }, (request) =>
    sdkDms.send(
      principalOf(request),
      parseInput(UserParams, request.params).user_id,
      parseInput(CreateMessageBody, request.body ?? {}),
    ),
  );

  app.get('/users/:user_id/messages', { config: { auth: ['bearer'] } }, (request) =>
    sdkDms.list(
      principalOf(request),
      parseInput(UserParams, request.params).user_id,
      parseInput(SdkMessagesQuery, request.query),
    ),
  );

  app.patch('/users/:user_id/messages/:message_id', { config: { auth: ['bearer'] } }, (request) => {
    const params = parseInput(UserMessageParams, request.params);
    return sdkDms.edit(
      principalOf(request),
      { userId: params.user_id, messageId: params.message_id },
      parseInput(EditMessageBody, request.body ?? {}),
    );
  });

  app.delete(
    '/users/:user_id/messages/:message_id',
    { config: { auth: ['bearer'] } },
    async (request, reply) => {
      const params = parseInput(UserMessageParams, request.params);
      await sdkDms.delete(principalOf(request), {
        userId: params.user_id,
        messageId: params.message_id,
      });
      return reply.status(204).send();
    },
  );

  app.put(
    '/partner-sdk/dms/:user_id_1/:user_id_2/messages/:message_id/moderation-metadata',
    { config: { auth: ['bot'] } },
    async (request, reply) => {
      const params = parseInput(ModerationParams, request.params);
      await sdkDms.putModerationMetadata(principalOf(request), {
        users: [params.user_id_1, params.user_id_2],
        messageId: params.message_id,
        metadata: parseInput(ModerationMetadataBody, request.body ?? {}),
      });
      return reply.status(204).send();
    },
  );
}
