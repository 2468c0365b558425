import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Blob, BlobStore } from '../../blobs/index.js';
import { ApiError } from '../../errors/index.js';
import { auditLogReason } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { Storage } from '../../storage/index.js';
import { CreateEmojiBody, EmojiParams, GuildParams, ModifyEmojiBody } from './schemas.js';
import type { EmojiService } from './service.js';

const AUTH = ['bot', 'session'] as const;

export function registerEmojiRoutes(app: FastifyInstance, emojis: EmojiService): void {
  app.get('/guilds/:guild_id/emojis', { config: { auth: AUTH } }, (request) =>
    emojis.list(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.get('/guilds/:guild_id/emojis/:emoji_id', { config: { auth: AUTH } }, (request) => {
    const params = parseInput(EmojiParams, request.params);
    return emojis.get(principalOf(request), params.guild_id, params.emoji_id);
  });

  app.post('/guilds/:guild_id/emojis', { config: { auth: AUTH } }, async (request, reply) => {
    const { guild_id } = parseInput(GuildParams, request.params);
    const body = parseInput(CreateEmojiBody, request.body ?? {});
    const emoji = await emojis.create(principalOf(request), guild_id, {
      ...body,
      reason: auditLogReason(request.headers['x-audit-log-reason']),
    });
    return reply.status(201).send(emoji);
  });

  app.patch('/guilds/:guild_id/emojis/:emoji_id', { config: { auth: AUTH } }, (request) => {
    const params = parseInput(EmojiParams, request.params);
    return emojis.modify(
      principalOf(request),
      { guildId: params.guild_id, emojiId: params.emoji_id },
      {
        ...parseInput(ModifyEmojiBody, request.body ?? {}),
        reason: auditLogReason(request.headers['x-audit-log-reason']),
      },
    );
  });

  app.delete(
    '/guilds/:guild_id/emojis/:emoji_id',
    { config: { auth: AUTH } },
    async (request, reply) => {
      const params = parseInput(EmojiParams, request.params);
      await emojis.delete(
        principalOf(request),
        { guildId: params.guild_id, emojiId: params.emoji_id },
        { reason: auditLogReason(request.headers['x-audit-log-reason']) },
      );
      return reply.status(204).send();
    },
  );
}

/** Sends a stored image with the CDN's caching headers. */
export function sendAsset(reply: FastifyReply, blob: Blob) {
  return reply
    .type(blob.contentType)
    .header('cache-control', 'public, max-age=86400')
    .send(blob.bytes);
}

const EMOJI_FILE = /^(\d{1,20})\.(png|jpg|jpeg|webp|gif)$/;

/**
 * The platform's CDN path for emoji, /emojis/{id}.{ext} (outside /api). Files are served as
 * uploaded: there is no transcoding, so any static extension answers with the stored image and
 * `.gif` only exists for animated emoji. A deleted emoji is gone from here too.
 */
export function registerEmojiCdnRoutes(
  app: FastifyInstance,
  options: { storage: Storage; blobs: BlobStore },
): void {
  app.get('/emojis/:file', { config: { auth: 'none' } }, async (request, reply) => {
    const { file } = request.params as { file: string };
    const [, emojiId = '', extension] = EMOJI_FILE.exec(file) ?? [];
    const emoji = isSnowflake(emojiId) ? await options.storage.emojis.findById(emojiId) : null;
    if (emoji === null || (extension === 'gif' && !emoji.animated)) throw new ApiError('NOT_FOUND');
    const blob = await options.blobs.get(`emojis/${emoji.id}`);
    if (blob === null) throw new ApiError('NOT_FOUND');
    return sendAsset(reply, blob);
  });
}
