/**
 * Guild soundboard sounds (docs/soundboard.md): list, get, upload, edit and delete with
 * GUILD_SOUNDBOARD_SOUND_* events and audit entries 130–132, and playing a sound in a voice
 * channel (VOICE_CHANNEL_EFFECT_SEND). The audio is checked for what it is and how long it
 * plays (audio.ts) and kept in the blob store under `soundboard/{id}`.
 */
import {
  AuditLogActions,
  PermissionFlags as P,
  isSnowflake,
  isVoiceChannelType,
} from '@guildhall/protocol';
import { freeBlobsAfterCommit } from '../../blobs/lifecycle.js';
import { requiredPermissions } from '../../domain/permissions.js';
import { parseDataUri } from '../../domain/imageDataUri.js';
import { afterCommit, afterWrite } from '../../events/afterCommit.js';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type {
  Repositories,
  SoundboardSoundPatch,
  SoundboardSoundRecord,
} from '../../storage/index.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import { diffChanges, recordAudit, recordChanges, snapshotChanges } from '../auditLog/index.js';
import { loadChannelAccess } from '../channels/index.js';
import type { ServiceDeps } from '../deps.js';
import { holdsEither, requireEditRights, type Mutation } from '../expressions/index.js';
import { maxSizeMessage } from '../imageUploads.js';
import { readAudio } from './audio.js';
import { DEFAULT_SOUNDS, findDefaultSound, serializeDefaultSound } from './defaults.js';
import {
  MAX_SOUND_BYTES,
  MAX_SOUND_SECONDS,
  SOUND_LIMIT_TIER_0,
  type CreateSoundInput,
  type ModifySoundInput,
  type SendSoundInput,
} from './schemas.js';
import { auditedSound, serializeSound } from './serialize.js';

const EXPRESSIONS = { create: P.CREATE_GUILD_EXPRESSIONS, manage: P.MANAGE_GUILD_EXPRESSIONS };

/** The sound's audio from its data URI: a whole MP3 or Ogg stream of at most 5.2 s. */
export function decodeSound(value: string): { bytes: Buffer; contentType: string } {
  const decoded = parseDataUri(value);
  if (decoded === null || decoded.bytes.length === 0) {
    throw invalidField(['sound'], 'BINARY_TYPE_INVALID', 'The sound must be a base64 data URI.');
  }
  if (decoded.bytes.length > MAX_SOUND_BYTES) {
    throw invalidField(['sound'], 'BINARY_TYPE_MAX_SIZE', maxSizeMessage(MAX_SOUND_BYTES));
  }
  const audio = readAudio(decoded.bytes);
  if (audio === null) throw new ApiError('INVALID_FILE_UPLOADED');
  if (audio.durationSeconds <= 0 || audio.durationSeconds > MAX_SOUND_SECONDS) {
    throw new ApiError('INVALID_FILE_DURATION');
  }
  return { bytes: decoded.bytes, contentType: audio.contentType };
}

export function createSoundboardService(deps: ServiceDeps) {
  const { storage, clock, ids, blobs } = deps;
  const accessFor = accessLoader(clock);

  const findIn = async (repos: Repositories, access: GuildAccess, soundId: string) => {
    const sound = isSnowflake(soundId) ? await repos.soundboard.findById(soundId) : null;
    if (sound?.guildId !== access.guild.id) throw new ApiError('UNKNOWN_SOUND');
    return sound;
  };

  const present = async (
    repos: Repositories,
    access: GuildAccess,
    sound: SoundboardSoundRecord,
  ) => {
    const creator =
      sound.creatorId !== null && holdsEither(access, EXPRESSIONS)
        ? await repos.users.findById(sound.creatorId)
        : null;
    return serializeSound(sound, creator);
  };

  /** A custom emoji must be one of this guild's. */
  const checkEmoji = async (
    repos: Repositories,
    guildId: string,
    emojiId: string | null | undefined,
  ) => {
    if (emojiId == null) return;
    const emoji = await repos.emojis.findById(emojiId);
    if (emoji?.guildId !== guildId) {
      throw invalidField(['emoji_id'], 'UNKNOWN_EMOJI', 'Unknown emoji');
    }
  };

  const announce = async (
    repos: Repositories,
    type: 'GUILD_SOUNDBOARD_SOUND_CREATE' | 'GUILD_SOUNDBOARD_SOUND_UPDATE',
    sound: SoundboardSoundRecord,
  ) => {
    const creator = sound.creatorId === null ? null : await repos.users.findById(sound.creatorId);
    afterCommit(repos, { type, guildId: sound.guildId, data: serializeSound(sound, creator) });
  };

  return {
    defaults: () => DEFAULT_SOUNDS.map(serializeDefaultSound),

    async list(principal: Principal, guildId: string) {
      const access = await accessFor(storage, principal, guildId);
      const sounds = await storage.soundboard.listByGuild(access.guild.id);
      return { items: await Promise.all(sounds.map((s) => present(storage, access, s))) };
    },

    async get(principal: Principal, guildId: string, soundId: string) {
      const access = await accessFor(storage, principal, guildId);
      return present(storage, access, await findIn(storage, access, soundId));
    },

    async create(principal: Principal, guildId: string, input: CreateSoundInput & Mutation) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, guildId);
        access.require(requiredPermissions.createExpressions(clock.now()));
        const audio = decodeSound(input.sound);
        await checkEmoji(tx, access.guild.id, input.emoji_id);
        const existing = await tx.soundboard.listByGuild(access.guild.id);
        if (existing.length >= SOUND_LIMIT_TIER_0) throw new ApiError('MAX_SOUNDBOARD_SOUNDS');
        const sound: SoundboardSoundRecord = {
          id: ids(),
          guildId: access.guild.id,
          name: input.name,
          volume: input.volume ?? 1,
          emojiId: input.emoji_id ?? null,
          emojiName: input.emoji_name ?? null,
          creatorId: principal.user.id,
          contentType: audio.contentType,
          available: true,
          createdAt: clock.now(),
        };
        // The file goes first: a failed insert leaves an unreachable file, never a broken sound.
        await blobs.put(`soundboard/${sound.id}`, audio);
        await tx.soundboard.create(sound);
        await announce(tx, 'GUILD_SOUNDBOARD_SOUND_CREATE', sound);
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: sound.id,
          actionType: AuditLogActions.SOUNDBOARD_SOUND_CREATE,
          changes: snapshotChanges(auditedSound(sound)),
          reason: input.reason,
        });
        return serializeSound(sound, principal.user);
      });
    },

    async modify(
      principal: Principal,
      target: { guildId: string; soundId: string },
      input: ModifySoundInput & Mutation,
    ) {
      return storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        const sound = await findIn(tx, access, target.soundId);
        requireEditRights(access, sound.creatorId, EXPRESSIONS);
        await checkEmoji(tx, access.guild.id, input.emoji_id);
        const patch: SoundboardSoundPatch = {};
        if (input.name !== undefined) patch.name = input.name;
        if (input.volume !== undefined) patch.volume = input.volume ?? 1;
        if (input.emoji_id !== undefined) patch.emojiId = input.emoji_id;
        if (input.emoji_name !== undefined) patch.emojiName = input.emoji_name;
        const updated = await tx.soundboard.update(sound.id, patch);
        if (updated === null) throw new ApiError('UNKNOWN_SOUND');
        const changes = diffChanges(auditedSound(sound), auditedSound(updated));
        if (changes.length > 0) await announce(tx, 'GUILD_SOUNDBOARD_SOUND_UPDATE', updated);
        await recordChanges(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: sound.id,
          actionType: AuditLogActions.SOUNDBOARD_SOUND_UPDATE,
          changes,
          reason: input.reason,
        });
        return present(tx, access, updated);
      });
    },

    async delete(principal: Principal, target: { guildId: string; soundId: string }, m: Mutation) {
      await storage.transaction(async (tx) => {
        const access = await accessFor(tx, principal, target.guildId);
        const sound = await findIn(tx, access, target.soundId);
        requireEditRights(access, sound.creatorId, EXPRESSIONS);
        await tx.soundboard.delete(sound.id);
        freeBlobsAfterCommit(tx, blobs, [`soundboard/${sound.id}`]);
        afterCommit(tx, {
          type: 'GUILD_SOUNDBOARD_SOUND_DELETE',
          guildId: sound.guildId,
          data: { sound_id: sound.id, guild_id: sound.guildId },
        });
        await recordAudit(tx, ids, {
          guildId: access.guild.id,
          userId: principal.user.id,
          targetId: sound.id,
          actionType: AuditLogActions.SOUNDBOARD_SOUND_DELETE,
          changes: snapshotChanges(auditedSound(sound), 'old'),
          reason: m.reason,
        });
      });
    },

    /**
     * POST /channels/{id}/send-soundboard-sound: the caller must be connected to the channel,
     * not muted, deafened or a stage listener, and hold SPEAK and USE_SOUNDBOARD there (and
     * USE_EXTERNAL_SOUNDS for another guild's sound, whose member it must be).
     */
    async send(principal: Principal, channelId: string, input: SendSoundInput) {
      const userId = principal.user.id;
      const access = await loadChannelAccess(storage, { channelId, userId, nowMs: clock.now() });
      const { channel } = access;
      if (!isVoiceChannelType(channel.type)) throw new ApiError('CANNOT_EXECUTE_ON_CHANNEL_TYPE');
      const sourceGuildId = input.source_guild_id ?? null;
      const external = sourceGuildId !== null && sourceGuildId !== channel.guildId;
      access.require(P.SPEAK | P.USE_SOUNDBOARD | (external ? P.USE_EXTERNAL_SOUNDS : 0n));
      const state = await storage.gateway.findVoiceState(channel.guildId, userId);
      if (state?.channelId !== channel.id) throw new ApiError('TARGET_USER_NOT_IN_VOICE');
      const member = await storage.members.find(channel.guildId, userId);
      if (member === null || member.mute || member.deaf || state.suppress || state.selfDeaf) {
        throw new ApiError('MISSING_PERMISSIONS');
      }
      let volume = 1;
      let emoji: { id: string | null; name: string | null } | null = null;
      if (sourceGuildId === null && findDefaultSound(input.sound_id) !== undefined) {
        const sound = findDefaultSound(input.sound_id);
        emoji = sound === undefined ? null : { id: null, name: sound.emojiName };
      } else {
        const guildId = sourceGuildId ?? channel.guildId;
        if (external) await accessFor(storage, principal, guildId);
        const sound = await storage.soundboard.findById(input.sound_id);
        if (sound?.guildId !== guildId || !sound.available) throw new ApiError('UNKNOWN_SOUND');
        volume = sound.volume;
        if (sound.emojiId !== null || sound.emojiName !== null) {
          emoji = { id: sound.emojiId, name: sound.emojiName };
        }
      }
      afterWrite(storage, {
        type: 'VOICE_CHANNEL_EFFECT_SEND',
        guildId: channel.guildId,
        channelId: channel.id,
        data: {
          channel_id: channel.id,
          guild_id: channel.guildId,
          user_id: userId,
          sound_id: input.sound_id,
          sound_volume: volume,
          ...(emoji === null ? {} : { emoji }),
          ...(sourceGuildId === null ? {} : { source_guild_id: sourceGuildId }),
        },
      });
    },
  };
}

export type SoundboardService = ReturnType<typeof createSoundboardService>;
