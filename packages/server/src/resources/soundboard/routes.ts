import { isSnowflake } from '@guildhall/protocol';
import type { FastifyInstance } from 'fastify';
import type { BlobStore } from '../../blobs/index.js';
import { ApiError } from '../../errors/index.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';
import { GuildParams } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { Storage } from '../../storage/index.js';
import { AUTH, reasonOf } from '../access/index.js';
import { ChannelParams } from '../channels/index.js';
import { sendBlob } from '../imageUploads.js';
import { findDefaultSound, silentMp3 } from './defaults.js';
import { CreateSoundBody, ModifySoundBody, SendSoundBody, SoundParams } from './schemas.js';
import type { SoundboardService } from './service.js';

export function registerSoundboardRoutes(app: FastifyInstance, sounds: SoundboardService): void {
  app.get('/soundboard-default-sounds', AUTH, () => sounds.defaults());

  app.get('/guilds/:guild_id/soundboard-sounds', AUTH, (request) =>
    sounds.list(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  app.get('/guilds/:guild_id/soundboard-sounds/:sound_id', AUTH, (request) => {
    const params = parseInput(SoundParams, request.params);
    return sounds.get(principalOf(request), params.guild_id, params.sound_id);
  });

  app.post('/guilds/:guild_id/soundboard-sounds', AUTH, async (request, reply) => {
    const { guild_id } = parseInput(GuildParams, request.params);
    const sound = await sounds.create(principalOf(request), guild_id, {
      ...parseInput(CreateSoundBody, request.body ?? {}),
      reason: reasonOf(request),
    });
    return reply.status(201).send(sound);
  });

  app.patch('/guilds/:guild_id/soundboard-sounds/:sound_id', AUTH, (request) => {
    const params = parseInput(SoundParams, request.params);
    return sounds.modify(
      principalOf(request),
      { guildId: params.guild_id, soundId: params.sound_id },
      { ...parseInput(ModifySoundBody, request.body ?? {}), reason: reasonOf(request) },
    );
  });

  app.delete('/guilds/:guild_id/soundboard-sounds/:sound_id', AUTH, async (request, reply) => {
    const params = parseInput(SoundParams, request.params);
    await sounds.delete(
      principalOf(request),
      { guildId: params.guild_id, soundId: params.sound_id },
      { reason: reasonOf(request) },
    );
    return reply.status(204).send();
  });

  app.post('/channels/:channel_id/send-soundboard-sound', AUTH, async (request, reply) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    await sounds.send(
      principalOf(request),
      channel_id,
      parseInput(SendSoundBody, request.body ?? {}),
    );
    return reply.status(204).send();
  });
}

/** The platform's CDN path for sounds, /soundboard-sounds/{id} (outside /api). */
export function registerSoundboardCdnRoutes(
  app: FastifyInstance,
  options: { storage: Storage; blobs: BlobStore },
): void {
  app.get(
    '/soundboard-sounds/:sound_id',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const { sound_id: soundId } = request.params as { sound_id: string };
      const builtIn = findDefaultSound(soundId);
      if (builtIn !== undefined) {
        return reply.type('audio/mpeg').send(silentMp3(builtIn.frames));
      }
      const sound = isSnowflake(soundId)
        ? await options.storage.soundboard.findById(soundId)
        : null;
      if (sound === null) throw new ApiError('NOT_FOUND');
      return sendBlob(reply, options.blobs, `soundboard/${sound.id}`);
    },
  );
}
