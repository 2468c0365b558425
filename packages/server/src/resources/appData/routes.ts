import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import { registerMultipart, streamMultipart } from '../../http/multipart.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { RoleConnectionMetadataRecord } from '../../storage/index.js';
import { withFiles } from '../messages/index.js';
import type { AppAttachmentService } from './attachments.js';
import type { ApplicationEmojiService } from './emojis.js';
import type { OAuthMemberService } from './members.js';
import type { RoleConnectionService } from './roleConnections.js';
import {
  AddMemberBody,
  AppEmojiParams,
  AppParams,
  CreateAppEmojiBody,
  GuildMemberParams,
  MetadataBody,
  ModifyAppEmojiBody,
  UserRoleConnectionBody,
} from './schemas.js';

export interface AppDataServices {
  emojis: ApplicationEmojiService;
  roleConnections: RoleConnectionService;
  members: OAuthMemberService;
  attachments: AppAttachmentService;
}

/** The bot token of the application (or its owner's session, the portal's). */
const APP = { config: { auth: ['bot', 'session'] } } as const;
const BEARER = { config: { auth: ['bearer'] } } as const;

/** Application emojis, role connections, activity attachments and OAuth2 membership. */
export function registerAppDataRoutes(
  app: FastifyInstance,
  services: AppDataServices,
  options: { maxAttachmentBytes: number },
): void {
  const { emojis, roleConnections, members, attachments } = services;
  const appId = (params: unknown) => parseInput(AppParams, params).application_id;

  app.get('/applications/:application_id/emojis', APP, (request) =>
    emojis.list(principalOf(request), appId(request.params)),
  );
  app.get('/applications/:application_id/emojis/:emoji_id', APP, (request) => {
    const params = parseInput(AppEmojiParams, request.params);
    return emojis.get(principalOf(request), params.application_id, params.emoji_id);
  });
  app.post('/applications/:application_id/emojis', APP, async (request, reply) => {
    const body = parseInput(CreateAppEmojiBody, request.body ?? {});
    const created = await emojis.create(principalOf(request), appId(request.params), body);
    return reply.status(201).send(created);
  });
  app.patch('/applications/:application_id/emojis/:emoji_id', APP, (request) => {
    const params = parseInput(AppEmojiParams, request.params);
    const { name } = parseInput(ModifyAppEmojiBody, request.body ?? {});
    return emojis.rename(
      principalOf(request),
      { applicationId: params.application_id, emojiId: params.emoji_id },
      name,
    );
  });
  app.delete('/applications/:application_id/emojis/:emoji_id', APP, async (request, reply) => {
    const params = parseInput(AppEmojiParams, request.params);
    await emojis.delete(principalOf(request), {
      applicationId: params.application_id,
      emojiId: params.emoji_id,
    });
    return reply.status(204).send();
  });

  const METADATA = '/applications/:application_id/role-connections/metadata';
  app.get(METADATA, APP, (request) =>
    roleConnections.metadata(principalOf(request), appId(request.params)),
  );
  app.put(METADATA, APP, (request) =>
    roleConnections.putMetadata(
      principalOf(request),
      appId(request.params),
      parseInput(MetadataBody, request.body ?? []) as RoleConnectionMetadataRecord[],
    ),
  );

  const CONNECTION = '/users/@me/applications/:application_id/role-connection';
  app.get(CONNECTION, BEARER, (request) =>
    roleConnections.get(principalOf(request), appId(request.params)),
  );
  app.put(CONNECTION, BEARER, (request) =>
    roleConnections.put(
      principalOf(request),
      appId(request.params),
      parseInput(UserRoleConnectionBody, request.body ?? {}),
    ),
  );
  app.delete(CONNECTION, BEARER, async (request, reply) => {
    await roleConnections.delete(principalOf(request), appId(request.params));
    return reply.status(204).send();
  });

  app.get('/users/@me/guilds/:guild_id/member', BEARER, (request) =>
    members.myMember(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );
  app.put(
    '/guilds/:guild_id/members/:user_id',
    { config: { auth: ['bot'] } },
    async (request, reply) => {
      const params = parseInput(GuildMemberParams, request.params);
      const added = await members.addWithToken(
        principalOf(request),
        { guildId: params.guild_id, userId: params.user_id },
        parseInput(AddMemberBody, request.body ?? {}),
      );
      return added === null ? reply.status(204).send() : reply.status(201).send(added);
    },
  );

  // The multipart parser exists only in this scope (http/multipart.ts). Who may upload is
  // settled before the body is read; the file then streams to staging, as a message's do.
  void app.register(async (scope) => {
    await registerMultipart(scope);
    scope.post(
      '/applications/:application_id/attachment',
      { config: { auth: ['bot', 'bearer', 'session'] } },
      async (request) => {
        const applicationId = appId(request.params);
        const principal = principalOf(request);
        await attachments.uploadGate(principal, applicationId);
        const form = await streamMultipart(request, {
          maxFileBytes: options.maxAttachmentBytes,
          maxTotalBytes: options.maxAttachmentBytes,
          maxFiles: 1,
          maxFieldBytes: 4096,
          namedFiles: ['file'],
          stage: (source) => attachments.stage(source),
        });
        const file = form.files.find((part) => part.field === 'file');
        return withFiles(form.files, () => attachments.upload(principal, applicationId, file));
      },
    );
  });
}
