import { ChannelTypes, isVoiceChannelType } from '@guildhall/protocol';
import { invalidField } from '../../errors/index.js';
import type { ChannelPatch, ChannelRecord, Repositories } from '../../storage/index.js';
import {
  CHANNEL_FIELD_LIMITS,
  MAX_BITRATE,
  MAX_USER_LIMIT,
  VOICE_MAX_BITRATE,
  VOICE_MAX_USERS,
  hasTopic,
  isCategory,
  maxTopicLength,
  normaliseChannelName,
} from './rules.js';
import type { ModifyChannelInput } from './schemas.js';

/**
 * Turns the channel fields of a create or modify body into a record patch for a channel of
 * `type`, checking the rules that depend on the type. Fields a type does not carry are ignored,
 * as the platform ignores them.
 */
export function channelPatch(type: number, input: ModifyChannelInput): ChannelPatch {
  const patch: ChannelPatch = {};
  if (input.name !== undefined) {
    const name = normaliseChannelName(type, input.name);
    if (name === null) {
      const { min, max } = CHANNEL_FIELD_LIMITS.name;
      throw invalidField(
        ['name'],
        'BASE_TYPE_BAD_LENGTH',
        `Must be between ${String(min)} and ${String(max)} in length.`,
      );
    }
    patch.name = name;
  }
  if (input.position != null) patch.position = input.position;
  if (isCategory(type)) return patch;
  if (input.nsfw != null) patch.nsfw = input.nsfw;
  if (input.rate_limit_per_user != null) patch.rateLimitPerUser = input.rate_limit_per_user;
  if (input.topic !== undefined && hasTopic(type)) {
    const max = maxTopicLength(type);
    if (input.topic !== null && input.topic.length > max) {
      throw invalidField(['topic'], 'BASE_TYPE_MAX_LENGTH', `Must be ${max} or fewer in length.`);
    }
    patch.topic = input.topic === '' ? null : input.topic;
  }
  if (isVoiceChannelType(type)) {
    const maxBitrate = MAX_BITRATE[type] ?? VOICE_MAX_BITRATE;
    if (input.bitrate != null) {
      if (input.bitrate > maxBitrate) {
        throw invalidField(
          ['bitrate'],
          'NUMBER_TYPE_MAX',
          `int value should be less than or equal to ${maxBitrate}.`,
        );
      }
      patch.bitrate = input.bitrate;
    }
    const maxUsers = MAX_USER_LIMIT[type] ?? VOICE_MAX_USERS;
    if (input.user_limit != null) {
      if (input.user_limit > maxUsers) {
        throw invalidField(
          ['user_limit'],
          'NUMBER_TYPE_MAX',
          `int value should be less than or equal to ${maxUsers}.`,
        );
      }
      patch.userLimit = input.user_limit;
    }
  }
  return patch;
}

/**
 * Checks a parent id: a category of the same guild, and never for a category itself. Returns the
 * parent (null for none).
 */
export async function resolveParent(
  repos: Repositories,
  request: { guildId: string; type: number; parentId: string | null; path?: (string | number)[] },
): Promise<ChannelRecord | null> {
  const path = request.path ?? ['parent_id'];
  if (request.parentId === null) return null;
  if (isCategory(request.type)) {
    throw invalidField(path, 'CHANNEL_PARENT_INVALID', 'A category cannot have a parent.');
  }
  const parent = await repos.channels.findById(request.parentId);
  if (parent?.guildId !== request.guildId || parent.type !== ChannelTypes.GUILD_CATEGORY) {
    throw invalidField(path, 'CHANNEL_PARENT_INVALID', 'Category does not exist.');
  }
  return parent;
}

/** The fields an audit entry compares (wire names); overwrites only for create and delete. */
export function auditView(
  wire: Record<string, unknown>,
  options: { overwrites: boolean },
): Record<string, unknown> {
  const keys = [
    'name',
    'type',
    'position',
    'topic',
    'nsfw',
    'rate_limit_per_user',
    'bitrate',
    'user_limit',
    'parent_id',
    ...(options.overwrites ? ['permission_overwrites'] : []),
  ];
  return Object.fromEntries(keys.filter((key) => key in wire).map((key) => [key, wire[key]]));
}
