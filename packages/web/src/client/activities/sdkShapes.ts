/**
 * The client's state in the shapes the embedded app SDK validates (its zod schemas,
 * `@discord/embedded-app-sdk` 2.5.0 src/schema): users, participants, voice states, channels with
 * their loaded messages, relationships with presences. A field the SDK requires is always
 * present (`bot: false`, `avatar_decoration_data: null`), as the platform's client sends it.
 *
 * @module
 */
import type { APIChannel, APIMessage, APIUser } from 'discord-api-types/v10';
import type { ClientState } from '../state.js';
import type { InstanceParticipant } from './api.js';

/** The SDK's User. */
export function sdkUser(user: APIUser) {
  return {
    id: user.id,
    username: user.username,
    discriminator: user.discriminator,
    global_name: user.global_name ?? null,
    avatar: user.avatar ?? null,
    avatar_decoration_data: null,
    bot: user.bot ?? false,
    flags: user.public_flags ?? 0,
    premium_type: user.premium_type ?? 0,
  };
}

/** A participant of GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS and its update event. */
export function sdkParticipant(participant: InstanceParticipant, known: APIUser | undefined) {
  const out: Record<string, unknown> = {
    id: participant.id,
    username: participant.username,
    global_name: participant.global_name,
    discriminator: participant.discriminator,
    avatar: participant.avatar,
    flags: known?.public_flags ?? 0,
    bot: known?.bot ?? false,
  };
  if (typeof participant.nickname === 'string') out['nickname'] = participant.nickname;
  return out;
}

/** The voice states of the people connected to a guild voice channel (UserVoiceState). */
export function sdkVoiceStates(state: ClientState, guildId: string, channelId: string) {
  const voice = state.voiceStates[guildId] ?? {};
  return Object.entries(voice)
    .filter(([, entry]) => entry.channel_id === channelId)
    .flatMap(([userId, entry]) => {
      const user = state.users[userId];
      if (user === undefined) return [];
      const member = state.members[guildId]?.[userId];
      return [
        {
          mute: false,
          nick: member?.nick ?? user.global_name ?? user.username,
          user: sdkUser(user),
          voice_state: {
            mute: false,
            deaf: false,
            self_mute: entry.self_mute,
            self_deaf: entry.self_deaf,
            suppress: false,
          },
          volume: 100,
        },
      ];
    });
}

function sdkMessage(message: APIMessage) {
  return {
    id: message.id,
    channel_id: message.channel_id,
    author: sdkUser(message.author),
    content: message.content,
    timestamp: message.timestamp,
    edited_timestamp: message.edited_timestamp,
    tts: message.tts,
    mention_everyone: message.mention_everyone,
    mentions: message.mentions.map(sdkUser),
    mention_roles: message.mention_roles,
    mention_channels: (message.mention_channels ?? []).map((c) => ({
      id: c.id,
      guild_id: c.guild_id,
      type: c.type,
      name: c.name,
    })),
    attachments: message.attachments.map((a) => ({
      id: a.id,
      filename: a.filename,
      size: a.size,
      url: a.url,
      proxy_url: a.proxy_url,
      height: a.height ?? null,
      width: a.width ?? null,
    })),
    embeds: message.embeds.map((embed) => ({
      title: embed.title ?? null,
      type: embed.type ?? null,
      description: embed.description ?? null,
      url: embed.url ?? null,
      timestamp: embed.timestamp ?? null,
      color: embed.color ?? null,
      fields: (embed.fields ?? []).map((f) => ({
        name: f.name,
        value: f.value,
        inline: f.inline ?? false,
      })),
    })),
    pinned: message.pinned,
    type: message.type,
    flags: message.flags ?? 0,
  };
}

/** GET_CHANNEL's answer for a channel in the store, or null when the person cannot see it. */
export function sdkChannel(state: ClientState, channelId: string): Record<string, unknown> | null {
  const channel: APIChannel | undefined = state.channels[channelId];
  if (channel === undefined) return null;
  const guildId = 'guild_id' in channel ? (channel.guild_id ?? null) : null;
  const loaded = state.messages[channelId];
  return {
    id: channel.id,
    type: channel.type,
    guild_id: guildId,
    name: channel.name ?? null,
    topic: 'topic' in channel ? (channel.topic ?? null) : null,
    bitrate: 'bitrate' in channel ? (channel.bitrate ?? null) : null,
    user_limit: 'user_limit' in channel ? (channel.user_limit ?? null) : null,
    position: 'position' in channel ? channel.position : null,
    voice_states: guildId === null ? [] : sdkVoiceStates(state, guildId, channelId),
    // The messages this client has loaded for the channel, oldest first (the last 50).
    messages:
      loaded === undefined
        ? []
        : loaded.ids
            .slice(-50)
            .flatMap((id) => (loaded.byId[id] === undefined ? [] : [sdkMessage(loaded.byId[id])])),
  };
}

/** Fields of a presence activity the SDK's relationship schema knows, each when set. */
const ACTIVITY_STRINGS = ['name', 'url', 'application_id', 'state', 'details', 'session_id'];

/** A gateway presence activity in the SDK's shape (its schema refuses nulls where it has none). */
function sdkPresenceActivity(raw: unknown): Record<string, unknown> | null {
  if (typeof raw !== 'object' || raw === null) return null;
  const activity = raw as Record<string, unknown>;
  if (typeof activity['name'] !== 'string') return null;
  const out: Record<string, unknown> = {};
  for (const key of ACTIVITY_STRINGS) {
    if (typeof activity[key] === 'string') out[key] = activity[key];
  }
  if (typeof activity['type'] === 'number') out['type'] = activity['type'];
  const times = activity['timestamps'] as Record<string, unknown> | null | undefined;
  if (typeof times === 'object' && times !== null) {
    out['timestamps'] = Object.fromEntries(
      ['start', 'end'].flatMap((k) => (typeof times[k] === 'number' ? [[k, times[k]]] : [])),
    );
  }
  const assets = activity['assets'] as Record<string, unknown> | null | undefined;
  if (typeof assets === 'object' && assets !== null) {
    out['assets'] = Object.fromEntries(
      Object.entries(assets).filter(([, value]) => typeof value === 'string'),
    );
  }
  return out;
}

/** GET_RELATIONSHIPS' list: each relationship with the person's status and first activity. */
export function sdkRelationships(state: ClientState) {
  return Object.values(state.relationships).map((relationship) => {
    const presence = state.presences[relationship.user.id];
    return {
      type: relationship.type,
      user: {
        id: relationship.user.id,
        username: relationship.user.username,
        global_name: relationship.user.global_name ?? null,
        discriminator: relationship.user.discriminator,
        avatar: relationship.user.avatar ?? null,
        flags: relationship.user.public_flags ?? 0,
        bot: relationship.user.bot ?? false,
      },
      presence: {
        status: presence?.status ?? 'offline',
        activity: sdkPresenceActivity(presence?.activities[0]),
      },
    };
  });
}

/** A SKU as the API answers it. */
export interface WireSku {
  id: string;
  type: number;
  application_id: string;
  name: string;
  flags: number;
}

/** An entitlement as the API answers it. */
export interface WireEntitlement {
  id: string;
  sku_id: string;
  application_id: string;
  user_id: string;
  type: number;
  starts_at: string | null;
  ends_at: string | null;
  consumed?: boolean;
  deleted: boolean;
}

/**
 * A SKU in the SDK's shape. Guildhall takes no payments (every purchase is a test purchase), so
 * the price is 0; SKUs have no release date.
 */
export function sdkSku(sku: WireSku) {
  return {
    id: sku.id,
    name: sku.name,
    type: sku.type,
    price: { amount: 0, currency: 'usd' },
    application_id: sku.application_id,
    flags: sku.flags,
    release_date: null,
  };
}

/** An entitlement in the SDK's shape (no gift codes here: `gift_code_flags` 0). */
export function sdkEntitlement(entitlement: WireEntitlement) {
  return {
    id: entitlement.id,
    sku_id: entitlement.sku_id,
    application_id: entitlement.application_id,
    user_id: entitlement.user_id,
    gift_code_flags: 0,
    type: entitlement.type,
    starts_at: entitlement.starts_at,
    ends_at: entitlement.ends_at,
    consumed: entitlement.consumed ?? false,
    deleted: entitlement.deleted,
  };
}

/** CURRENT_GUILD_MEMBER_UPDATE's data: the person's member in the activity's guild. */
export function sdkGuildMember(
  guildId: string,
  member: { user: { id: string }; nick?: string | null; avatar?: string | null },
) {
  return {
    user_id: member.user.id,
    nick: member.nick ?? null,
    guild_id: guildId,
    avatar: member.avatar ?? null,
    avatar_decoration_data: null,
    color_string: null,
  };
}
