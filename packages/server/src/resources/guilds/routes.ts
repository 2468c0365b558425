import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors/index.js';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { BlobStore } from '../../blobs/index.js';
import { guildTemplate } from './create.js';
import { decodeImage, putImage } from '../imageUploads.js';
import { AUTH, reasonOf } from '../access/index.js';
import { guildImageKey } from './imageKinds.js';
import type { GuildManageService } from './manage.js';
import type { MyGuildsService } from './myGuilds.js';
import { CreateGuildBody, GetGuildQuery, ModifyGuildBody, MyGuildsQuery } from './schemas.js';
import { viewGuild } from './serialize.js';
import type { GuildService } from './service.js';
import type { Storage } from '../../storage/index.js';

export interface GuildRouteServices {
  guilds: GuildService;
  guildManage: GuildManageService;
  myGuilds: MyGuildsService;
}

/** Guilds: create (people only), read, modify, delete; the caller's own guild list; leaving. */
export function registerGuildRoutes(
  app: FastifyInstance,
  services: GuildRouteServices,
  deps: { storage: Storage; blobs: BlobStore },
): void {
  const { guilds, guildManage, myGuilds } = services;

  app.post('/guilds', AUTH, async (request, reply) => {
    const principal = principalOf(request);
    // Applications cannot create guilds; the platform removed that for them (spec, Endpoints).
    if (principal.kind === 'bot') throw new ApiError('BOTS_CANNOT_USE_ENDPOINT');
    const body = parseInput(CreateGuildBody, request.body ?? {});
    const icon = body.icon == null ? null : decodeImage('icon', body.icon);
    const created = await guilds.create(guildTemplate(principal.user.id, body, icon?.hash ?? null));
    // Stored once the guild has its id, which the image path is keyed by.
    if (icon !== null) {
      const key = guildImageKey('icon', created.guild.id)(icon.hash, icon.extension);
      await putImage(deps.blobs, key, icon);
    }
    return reply.status(201).send(await viewGuild(deps.storage, created.guild));
  });

  app.get('/guilds/:guild_id', AUTH, (request) =>
    guildManage.get(
      principalOf(request),
      parseInput(GuildParams, request.params).guild_id,
      parseInput(GetGuildQuery, request.query).with_counts ?? false,
    ),
  );

  app.patch('/guilds/:guild_id', AUTH, (request) =>
    guildManage.modify(principalOf(request), parseInput(GuildParams, request.params).guild_id, {
      ...parseInput(ModifyGuildBody, request.body ?? {}),
      reason: reasonOf(request),
    }),
  );

  app.delete('/guilds/:guild_id', AUTH, async (request, reply) => {
    await guildManage.delete(
      principalOf(request),
      parseInput(GuildParams, request.params).guild_id,
    );
    return reply.status(204).send();
  });

  app.get('/users/@me/guilds', { config: { auth: ['bot', 'bearer', 'session'] } }, (request) =>
    myGuilds.list(principalOf(request), parseInput(MyGuildsQuery, request.query)),
  );

  app.delete('/users/@me/guilds/:guild_id', AUTH, async (request, reply) => {
    await myGuilds.leave(principalOf(request), parseInput(GuildParams, request.params).guild_id);
    return reply.status(204).send();
  });
}
