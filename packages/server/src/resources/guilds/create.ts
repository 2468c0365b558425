import { ChannelTypes, isVoiceChannelType } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import { channelPatch, isCategory } from '../channels/index.js';
import type { CreateGuildInput } from './schemas.js';
import type { NewChannel, NewGuildInput } from './service.js';

/** A new guild without channels in the body gets the platform's starter layout. */
const DEFAULT_CHANNELS: NewChannel[] = [
  { ref: '1', name: 'Text Channels', type: ChannelTypes.GUILD_CATEGORY },
  { ref: '2', name: 'Voice Channels', type: ChannelTypes.GUILD_CATEGORY },
  { ref: '3', name: 'general', type: ChannelTypes.GUILD_TEXT, parentRef: '1' },
  { ref: '4', name: 'General', type: ChannelTypes.GUILD_VOICE, parentRef: '2' },
];

/**
 * Turns a POST /guilds body into a guild template, checking what the schema cannot: channel
 * field rules per type, and that every placeholder id (parent_id, overwrite ids, afk and system
 * channel) names a role or channel listed in the body, categories before their channels.
 */
export function guildTemplate(
  ownerId: string,
  body: CreateGuildInput,
  icon: string | null,
): NewGuildInput {
  const roles = (body.roles ?? []).map((role) => ({
    ...(role.id === undefined ? {} : { ref: role.id }),
    ...(role.name === undefined ? {} : { name: role.name }),
    ...(role.permissions === undefined ? {} : { permissions: role.permissions }),
    ...(role.color === undefined ? {} : { color: role.color }),
    ...(role.hoist === undefined ? {} : { hoist: role.hoist }),
    ...(role.mentionable === undefined ? {} : { mentionable: role.mentionable }),
  }));
  const roleRefs = new Set(roles.flatMap((role) => (role.ref === undefined ? [] : [role.ref])));
  const channelTypes = new Map<string, number>();
  const channels: NewChannel[] = [];
  for (const [index, channel] of (body.channels ?? []).entries()) {
    const type = channel.type ?? ChannelTypes.GUILD_TEXT;
    const at = (field: string) => ['channels', index, field];
    let fields;
    try {
      fields = channelPatch(type, {
        type,
        name: channel.name,
        topic: channel.topic,
        nsfw: channel.nsfw,
        rate_limit_per_user: channel.rate_limit_per_user,
        bitrate: channel.bitrate,
        user_limit: channel.user_limit,
      });
    } catch (err) {
      // The channel rules name the field; here it sits under channels[index].
      if (err instanceof ApiError && err.errors !== undefined) {
        throw new ApiError('INVALID_FORM_BODY', {
          errors: { channels: { [String(index)]: err.errors } },
        });
      }
      throw err;
    }
    const parentRef = channel.parent_id ?? undefined;
    if (parentRef !== undefined) {
      if (isCategory(type) || channelTypes.get(parentRef) !== ChannelTypes.GUILD_CATEGORY) {
        throw invalidField(at('parent_id'), 'CHANNEL_PARENT_INVALID', 'Category does not exist.');
      }
    }
    for (const [o, overwrite] of (channel.permission_overwrites ?? []).entries()) {
      if (!roleRefs.has(overwrite.id)) {
        throw invalidField(
          ['channels', index, 'permission_overwrites', o, 'id'],
          'ROLE_INVALID',
          'Role placeholder is not in roles.',
        );
      }
    }
    if (channel.id !== undefined) channelTypes.set(channel.id, type);
    channels.push({
      name: fields.name ?? channel.name,
      type,
      ...(channel.id === undefined ? {} : { ref: channel.id }),
      ...(parentRef === undefined ? {} : { parentRef }),
      ...(fields.topic === undefined ? {} : { topic: fields.topic }),
      ...(fields.nsfw === undefined ? {} : { nsfw: fields.nsfw }),
      ...(fields.rateLimitPerUser === undefined
        ? {}
        : { rateLimitPerUser: fields.rateLimitPerUser }),
      ...(fields.bitrate == null ? {} : { bitrate: fields.bitrate }),
      ...(fields.userLimit == null ? {} : { userLimit: fields.userLimit }),
      overwrites: (channel.permission_overwrites ?? []).map((o) => ({
        roleRef: o.id,
        allow: o.allow ?? 0n,
        deny: o.deny ?? 0n,
      })),
    });
  }
  const checkChannelRef = (field: string, ref: string | null | undefined, voice: boolean) => {
    if (ref == null) return undefined;
    const type = channelTypes.get(ref);
    if (type === undefined || isVoiceChannelType(type) !== voice || isCategory(type)) {
      throw invalidField([field], 'CHANNEL_INVALID', 'Channel placeholder is not a valid channel.');
    }
    return ref;
  };
  const afkChannelRef = checkChannelRef('afk_channel_id', body.afk_channel_id, true);
  const systemChannelRef = checkChannelRef('system_channel_id', body.system_channel_id, false);
  const useDefaults = body.channels == null;
  return {
    ownerId,
    name: body.name,
    icon,
    roles,
    channels: useDefaults ? DEFAULT_CHANNELS : channels,
    settings: {
      ...(body.verification_level == null ? {} : { verificationLevel: body.verification_level }),
      ...(body.default_message_notifications == null
        ? {}
        : { defaultMessageNotifications: body.default_message_notifications }),
      ...(body.explicit_content_filter == null
        ? {}
        : { explicitContentFilter: body.explicit_content_filter }),
      ...(body.afk_timeout == null ? {} : { afkTimeout: body.afk_timeout }),
      ...(body.system_channel_flags == null
        ? {}
        : { systemChannelFlags: body.system_channel_flags }),
    },
    ...(afkChannelRef === undefined ? {} : { afkChannelRef }),
    ...(useDefaults
      ? { systemChannelRef: '3' }
      : systemChannelRef === undefined
        ? {}
        : { systemChannelRef }),
  };
}
