import type { APIInvite, APIInviteGuild, APIInviteRole } from 'discord-api-types/v10';
import type { WireShape } from '../wireShape.js';
import type {
  ApplicationRecord,
  ChannelRecord,
  GuildRecord,
  InviteRecord,
  RoleRecord,
  UserRecord,
} from '../../storage/index.js';
import { serializeUser } from '../users/index.js';

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * The guild inside an invite, checked against discord-api-types' APIInviteGuild, which lacks the
 * `nsfw` sent here.
 */
type InviteGuildWireShape = WireShape<APIInviteGuild> & { nsfw: boolean };

/**
 * A guild invite as sent, checked against discord-api-types' APIInvite, which lacks the invite's
 * `guild_id` and the target application's `flags_new` and legacy `type`.
 */
type InviteWireShape = Omit<WireShape<APIInvite>, 'guild' | 'target_application'> & {
  guild_id: string;
  guild: InviteGuildWireShape;
  target_application?: WireShape<APIInvite['target_application']> & {
    flags_new: string;
    type: null;
  };
};

/** Everything an invite object shows, loaded by the service. */
export interface InviteView {
  invite: InviteRecord;
  guild: GuildRecord;
  channel: ChannelRecord;
  inviter: UserRecord | null;
  /** The invite's roles that still exist. */
  roles: RoleRecord[];
  targetUser: UserRecord | null;
  targetApplication: ApplicationRecord | null;
}

export interface InviteShape {
  /** uses, max_uses, max_age, temporary and created_at (create, lists, delete). */
  metadata: boolean;
  /** approximate counts (GET with with_counts). */
  counts?: { members: number; presences: number };
}

/** APIInviteRole as sent: `color`, deprecated there, is still sent. */
type InviteRoleWireShape = Omit<WireShape<APIInviteRole>, 'color'> & { color: number };

/** The partial role of invites (spec: Resources): id, name, position, color, colors, icon, emoji. */
export function serializeInviteRole(role: RoleRecord) {
  return {
    id: role.id,
    name: role.name,
    position: role.position,
    color: role.color,
    colors: {
      primary_color: role.color,
      secondary_color: role.secondaryColor,
      tertiary_color: role.tertiaryColor,
    },
    icon: role.icon,
    unicode_emoji: role.unicodeEmoji,
  } satisfies InviteRoleWireShape;
}

/** The guild inside an invite (InviteGuildResponse). */
function serializeInviteGuild(guild: GuildRecord) {
  return {
    id: guild.id,
    name: guild.name,
    splash: guild.splash,
    banner: guild.banner,
    description: guild.description,
    icon: guild.icon,
    features: guild.features,
    verification_level: guild.verificationLevel,
    vanity_url_code: null,
    nsfw_level: 0,
    nsfw: false,
    premium_subscription_count: 0,
  } satisfies InviteGuildWireShape;
}

/** A guild invite on the wire (GuildInviteResponse, type 0). */
export function serializeInvite(view: InviteView, shape: InviteShape) {
  const { invite } = view;
  return {
    type: 0,
    code: invite.code,
    guild_id: invite.guildId,
    guild: serializeInviteGuild(view.guild),
    channel: { id: view.channel.id, type: view.channel.type, name: view.channel.name },
    ...(view.inviter === null ? {} : { inviter: serializeUser(view.inviter) }),
    expires_at: invite.expiresAt === null ? null : iso(invite.expiresAt),
    flags: 0,
    ...(invite.targetType === null ? {} : { target_type: invite.targetType }),
    ...(view.targetUser === null ? {} : { target_user: serializeUser(view.targetUser) }),
    ...(view.targetApplication === null
      ? {}
      : {
          target_application: {
            id: view.targetApplication.id,
            name: view.targetApplication.name,
            icon: view.targetApplication.icon,
            // What an activity invite shows: the app's cover image (the portal's upload).
            ...(view.targetApplication.coverImage === null
              ? {}
              : { cover_image: view.targetApplication.coverImage }),
            description: view.targetApplication.description,
            type: null,
            verify_key: view.targetApplication.verifyKey,
            flags: Number(view.targetApplication.flags & 0x7fffffffn),
            flags_new: view.targetApplication.flags.toString(),
          },
        }),
    roles: view.roles.map(serializeInviteRole),
    ...(shape.counts === undefined
      ? {}
      : {
          approximate_member_count: shape.counts.members,
          approximate_presence_count: shape.counts.presences,
        }),
    ...(shape.metadata
      ? {
          uses: invite.uses,
          max_uses: invite.maxUses,
          max_age: invite.maxAge,
          temporary: invite.temporary,
          created_at: iso(invite.createdAt),
        }
      : {}),
  } satisfies InviteWireShape;
}

export type InviteWire = ReturnType<typeof serializeInvite>;
