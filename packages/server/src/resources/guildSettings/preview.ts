/**
 * @module resources/guildSettings/preview: GET /guilds/{id}/preview: a guild's public face
 * (name, images, features, emoji, stickers, member count), for its members and, when it is
 * DISCOVERABLE, for anyone; otherwise 10004 as for a guild that does not exist.
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ServiceDeps } from '../deps.js';
import type { WidgetPorts } from './widget.js';
import { serializeEmoji } from '../emojis/index.js';
import { serializeSticker } from '../stickers/index.js';

/** The members whose presence the count looks at (an approximate count, as named). */
const PRESENCE_SAMPLE = 1000;

export function createPreviewService(deps: ServiceDeps & Pick<WidgetPorts, 'presencesOf'>) {
  const { storage } = deps;
  return {
    async get(principal: Principal, guildId: string) {
      const guild = isSnowflake(guildId) ? await storage.guilds.findById(guildId) : null;
      if (guild === null) throw new ApiError('UNKNOWN_GUILD');
      const member = await storage.members.find(guild.id, principal.user.id);
      if (member === null && !guild.features.includes('DISCOVERABLE')) {
        throw new ApiError('UNKNOWN_GUILD');
      }
      const [emojis, stickers, counts, members] = await Promise.all([
        storage.emojis.listByGuild(guild.id),
        storage.stickers.listByGuild(guild.id),
        storage.guilds.memberCounts([guild.id]),
        storage.members.listByGuild(guild.id, { limit: PRESENCE_SAMPLE }),
      ]);
      const presences = await deps.presencesOf(members.map((m) => m.userId));
      const online = [...presences.values()].filter(
        (p) => p.status !== 'offline' && p.status !== 'invisible',
      );
      return {
        id: guild.id,
        name: guild.name,
        icon: guild.icon,
        description: guild.description,
        home_header: null,
        splash: guild.splash,
        discovery_splash: null,
        features: guild.features,
        approximate_member_count: counts.get(guild.id) ?? 0,
        approximate_presence_count: online.length,
        emojis: emojis.map((emoji) => serializeEmoji(emoji, null)),
        stickers: stickers.map((sticker) => serializeSticker(sticker, null)),
      };
    },
  };
}

export type PreviewService = ReturnType<typeof createPreviewService>;
