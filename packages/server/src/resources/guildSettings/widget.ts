/**
 * @module resources/guildSettings/widget: the public widget of a guild (no token needed):
 * `widget.json` (the voice channels @everyone may join, the members online with their status and
 * game, the invite of the widget channel) and `widget.png`. A guild whose widget is off answers
 * 50004; an unknown one 10004.
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Repositories } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { issueInvite } from '../invites/index.js';
import { everyoneView } from './everyone.js';
import { WidgetSettings } from './schemas.js';
import { readSetting } from './documents.js';
import { renderWidgetImage, type WidgetStyle } from './widgetImage.js';

/** A member's presence as the widget reads it (the gateway's shared presence store). */
export interface WidgetPresence {
  status: string;
  activities: readonly Record<string, unknown>[];
}

export interface WidgetPorts {
  /** The live presences among these users (absent: offline). */
  presencesOf: (userIds: readonly string[]) => Promise<ReadonlyMap<string, WidgetPresence>>;
  /** The public base URL (no /api), for invite and avatar links. */
  baseUrl: () => string;
}

/** The most members a widget lists (the platform's cap). */
export const WIDGET_MAX_MEMBERS = 100;
const SHOWN_STATUSES = new Set(['online', 'idle', 'dnd']);

export function createWidgetService(deps: ServiceDeps & WidgetPorts) {
  const { storage, clock } = deps;

  const enabledGuild = async (repos: Repositories, guildId: string) => {
    const guild = isSnowflake(guildId) ? await repos.guilds.findById(guildId) : null;
    if (guild === null) throw new ApiError('UNKNOWN_GUILD');
    const widget = await readSetting(repos, { guildId: guild.id, name: 'widget' }, WidgetSettings);
    if (!widget.enabled) throw new ApiError('GUILD_WIDGET_DISABLED');
    return { guild, widget };
  };

  /** The online members (by status), the first WIDGET_MAX_MEMBERS, and how many there are. */
  const online = async (guildId: string) => {
    const members = await storage.members.listByGuild(guildId, { limit: 1000 });
    const presences = await deps.presencesOf(members.map((m) => m.userId));
    const shown = members.filter((m) => SHOWN_STATUSES.has(presences.get(m.userId)?.status ?? ''));
    return { shown, presences, count: shown.length };
  };

  /** The widget channel's invite: one made for the widget (no inviter, no expiry), reused. */
  const widgetInvite = async (guildId: string, channelId: string | null) => {
    if (channelId === null) return null;
    return storage.transaction(async (tx) => {
      const existing = (await tx.invites.listByChannel(channelId)).find(
        (invite) => invite.inviterId === null && invite.maxAge === 0 && invite.maxUses === 0,
      );
      const invite =
        existing ??
        (await issueInvite(tx, {
          guildId,
          channelId,
          inviterId: null,
          maxAgeSeconds: 0,
          maxUses: 0,
          targetUserIds: [],
          now: clock.now(),
        }));
      return `${deps.baseUrl()}/invite/${invite.code}`;
    });
  };

  return {
    /** GET /guilds/{id}/widget.json. */
    async json(guildId: string) {
      const { guild, widget } = await enabledGuild(storage, guildId);
      const view = await everyoneView(storage, guild, clock.now());
      const { shown, presences, count } = await online(guild.id);
      const users = await Promise.all(
        shown.slice(0, WIDGET_MAX_MEMBERS).map((m) => storage.users.findById(m.userId)),
      );
      const members = shown.slice(0, WIDGET_MAX_MEMBERS).flatMap((member, index) => {
        const user = users[index];
        if (user == null) return [];
        const presence = presences.get(member.userId);
        const game = presence?.activities.find((a) => a['type'] === 0);
        return [
          {
            // The platform hides members' ids in the widget: each is its place in the list.
            id: String(index),
            username: member.nick ?? user.globalName ?? user.username,
            discriminator: '0000',
            avatar: null,
            status: presence?.status ?? 'online',
            avatar_url:
              user.avatar === null
                ? `${deps.baseUrl()}/embed/avatars/0.png`
                : `${deps.baseUrl()}/avatars/${user.id}/${user.avatar}.png`,
            ...(typeof game?.['name'] === 'string' ? { activity: { name: game['name'] } } : {}),
          },
        ];
      });
      return {
        id: guild.id,
        name: guild.name,
        instant_invite: await widgetInvite(guild.id, widget.channel_id),
        channels: view.channels
          .filter(view.joinableVoice)
          .map((c) => ({ id: c.id, name: c.name ?? '', position: c.position })),
        members,
        presence_count: count,
      };
    },

    /** GET /guilds/{id}/widget.png in one of the five styles. */
    async png(guildId: string, style: WidgetStyle): Promise<Buffer> {
      const { guild } = await enabledGuild(storage, guildId);
      const { count } = await online(guild.id);
      return renderWidgetImage(style, { name: guild.name, onlineCount: count });
    },
  };
}

export type WidgetService = ReturnType<typeof createWidgetService>;
