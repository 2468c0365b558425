import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { BlobStore } from '../../blobs/index.js';
import { parseDataUri } from '../../domain/imageDataUri.js';
import { ApiError, invalidField } from '../../errors/index.js';
import { isMultipart, readMultipart, registerMultipart } from '../../http/multipart.js';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { AUTH, reasonOf } from '../access/index.js';
import { parseInput } from '../../http/validate.js';
import type { Storage } from '../../storage/index.js';
import { sendBlob } from '../imageUploads.js';
import { CDN_CACHE_CONTROL } from '../imageVariants.js';
import { stickerExtension } from './fileType.js';
import {
  findPack,
  findStandardSticker,
  serializePack,
  STICKER_PACKS,
  standardStickerPng,
} from './packs.js';
import {
  CreateStickerFields,
  CreateStickerJsonBody,
  MAX_STICKER_BYTES,
  ModifyStickerBody,
  PackParams,
  StickerIdParams,
  StickerParams,
  type CreateStickerInput,
} from './schemas.js';
import type { StickerService } from './service.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';

/**
 * Files a little over the sticker limit get the form error (50035) from the size rule; far over
 * it, the upload itself is refused (40005) while it streams in.
 */
const FORM_ERROR_MARGIN_BYTES = 16 * 1024;
const UPLOAD_LIMITS = {
  maxFileBytes: MAX_STICKER_BYTES + FORM_ERROR_MARGIN_BYTES,
  maxFiles: 1,
  maxFieldBytes: 4096,
};

/**
 * The create body in either form: multipart/form-data with a `file` part (what the platform
 * documents and client libraries send), or JSON with `file` as a base64 data URI.
 */
async function createInput(request: FastifyRequest): Promise<CreateStickerInput> {
  if (isMultipart(request)) {
    const form = await readMultipart(request, UPLOAD_LIMITS);
    const fields = parseInput(CreateStickerFields, form.fields);
    const file = form.files.find((part) => part.field === 'file');
    if (file === undefined)
      throw invalidField(['file'], 'BASE_TYPE_REQUIRED', 'This field is required');
    return { ...fields, file: file.data };
  }
  const { file, ...fields } = parseInput(CreateStickerJsonBody, request.body ?? {});
  const decoded = parseDataUri(file);
  if (decoded === null || decoded.bytes.length === 0) {
    throw invalidField(['file'], 'BINARY_TYPE_INVALID', 'The file must be a base64 data URI.');
  }
  return { ...fields, file: decoded.bytes };
}

export function registerStickerRoutes(app: FastifyInstance, stickers: StickerService): void {
  app.get('/sticker-packs', { config: { auth: 'none' } }, () => ({
    sticker_packs: STICKER_PACKS.map(serializePack),
  }));

  app.get('/sticker-packs/:pack_id', AUTH, (request) => {
    const pack = findPack(parseInput(PackParams, request.params).pack_id);
    if (pack === undefined) throw new ApiError('UNKNOWN_STICKER_PACK');
    return serializePack(pack);
  });

  app.get('/stickers/:sticker_id', AUTH, (request) => {
    const { sticker_id } = parseInput(StickerIdParams, request.params);
    return findStandardSticker(sticker_id) ?? stickers.getAny(principalOf(request), sticker_id);
  });

  app.get('/guilds/:guild_id/stickers', AUTH, (request) =>
    stickers.list(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.get('/guilds/:guild_id/stickers/:sticker_id', AUTH, (request) => {
    const params = parseInput(StickerParams, request.params);
    return stickers.get(principalOf(request), params.guild_id, params.sticker_id);
  });

  // The multipart parser exists only in this scope (http/multipart.ts, shared with messages).
  void app.register(async (scope) => {
    await registerMultipart(scope);
    scope.post('/guilds/:guild_id/stickers', AUTH, async (request, reply) => {
      const { guild_id } = parseInput(GuildParams, request.params);
      const sticker = await stickers.create(principalOf(request), guild_id, {
        ...(await createInput(request)),
        reason: reasonOf(request),
      });
      return reply.status(201).send(sticker);
    });
  });

  app.patch('/guilds/:guild_id/stickers/:sticker_id', AUTH, (request) => {
    const params = parseInput(StickerParams, request.params);
    return stickers.modify(
      principalOf(request),
      { guildId: params.guild_id, stickerId: params.sticker_id },
      {
        ...parseInput(ModifyStickerBody, request.body ?? {}),
        reason: reasonOf(request),
      },
    );
  });

  app.delete('/guilds/:guild_id/stickers/:sticker_id', AUTH, async (request, reply) => {
    const params = parseInput(StickerParams, request.params);
    await stickers.delete(
      principalOf(request),
      { guildId: params.guild_id, stickerId: params.sticker_id },
      { reason: reasonOf(request) },
    );
    return reply.status(204).send();
  });
}

const STICKER_FILE = /^(\d{1,20})\.(png|gif|json)$/;

/** The platform's CDN path for stickers, /stickers/{id}.{png|gif|json}, by the sticker's format. */
export function registerStickerCdnRoutes(
  app: FastifyInstance,
  options: { storage: Storage; blobs: BlobStore },
): void {
  app.get(
    '/stickers/:file',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const { file } = request.params as { file: string };
      const [, stickerId = '', extension] = STICKER_FILE.exec(file) ?? [];
      const standard = extension === 'png' ? standardStickerPng(stickerId) : null;
      if (standard !== null) {
        return reply.type('image/png').header('cache-control', CDN_CACHE_CONTROL).send(standard);
      }
      const sticker = isSnowflake(stickerId)
        ? await options.storage.stickers.findById(stickerId)
        : null;
      if (sticker === null || stickerExtension(sticker.formatType) !== extension) {
        throw new ApiError('NOT_FOUND');
      }
      return sendBlob(reply, options.blobs, `stickers/${sticker.id}`);
    },
  );
}
