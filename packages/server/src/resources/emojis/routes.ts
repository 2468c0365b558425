import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors/index.js';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { AUTH, reasonOf } from '../access/index.js';
import { parseInput } from '../../http/validate.js';
import type { Storage } from '../../storage/index.js';
import { CreateEmojiBody, EmojiParams, ModifyEmojiBody } from './schemas.js';
import type { EmojiService } from './service.js';
import { IMAGE_EXTENSION, type CdnImages } from '../imageVariants.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';

export function registerEmojiRoutes(app: FastifyInstance, emojis: EmojiService): void {
  app.get('/guilds/:guild_id/emojis', AUTH, (request) =>
    emojis.list(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.get('/guilds/:guild_id/emojis/:emoji_id', AUTH, (request) => {
    const params = parseInput(EmojiParams, request.params);
    return emojis.get(principalOf(request), params.guild_id, params.emoji_id);
  });

  app.post('/guilds/:guild_id/emojis', AUTH, async (request, reply) => {
    const { guild_id } = parseInput(GuildParams, request.params);
    const body = parseInput(CreateEmojiBody, request.body ?? {});
    const emoji = await emojis.create(principalOf(request), guild_id, {
      ...body,
      reason: reasonOf(request),
    });
    return reply.status(201).send(emoji);
  });

  app.patch('/guilds/:guild_id/emojis/:emoji_id', AUTH, (request) => {
    const params = parseInput(EmojiParams, request.params);
    return emojis.modify(
      principalOf(request),
      { guildId: params.guild_id, emojiId: params.emoji_id },
      {
        ...parseInput(ModifyEmojiBody, request.body ?? {}),
        reason: reasonOf(request),
      },
    );
  });

  app.delete('/guilds/:guild_id/emojis/:emoji_id', AUTH, async (request, reply) => {
    const params = parseInput(EmojiParams, request.params);
    await emojis.delete(
      principalOf(request),
      { guildId: params.guild_id, emojiId: params.emoji_id },
      { reason: reasonOf(request) },
    );
    return reply.status(204).send();
  });
}

const EMOJI_FILE = new RegExp(`^(\\d{1,20})\\.(${IMAGE_EXTENSION})$`);

/**
 * The platform's CDN path for emoji, /emojis/{id}.{ext} (outside /api), in every extension and
 * `?size=`; `.gif` only for animated emoji. A deleted emoji is gone from here too.
 */
export function registerEmojiCdnRoutes(
  app: FastifyInstance,
  options: { storage: Storage; images: CdnImages },
): void {
  app.get(
    '/emojis/:file',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const { file } = request.params as { file: string };
      const [, emojiId = '', extension] = EMOJI_FILE.exec(file) ?? [];
      // A guild's emoji, or an application's own (resources/appData), under the same path.
      const emoji = isSnowflake(emojiId)
        ? ((await options.storage.emojis.findById(emojiId)) ??
          (await options.storage.applicationEmojis.findById(emojiId)))
        : null;
      if (emoji === null || extension === undefined) throw new ApiError('NOT_FOUND');
      return options.images.send(request, reply, {
        keys: [`emojis/${emoji.id}`],
        animated: emoji.animated,
        extension,
      });
    },
  );
}
