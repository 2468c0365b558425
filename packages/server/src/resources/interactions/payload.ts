/**
 * The interaction object an app receives (docs/interactions.md#the-interaction-object). The
 * OpenAPI document has no schema for it; discord-api-types' APIBaseInteraction is the shape
 * contract, checked at compile time (`satisfies`). The token is made here and handed out once:
 * only its sha256 is stored, and the stored payload has no token.
 */
import { randomBytes } from 'node:crypto';
import type { APIBaseInteraction, InteractionType } from 'discord-api-types/v10';
import type {
  GuildRecord,
  MemberRecord,
  OverwriteRecord,
  UserRecord,
} from '../../storage/index.js';
import { serializeChannel } from '../channels/index.js';
import { serializePrivateChannel } from '../dms/index.js';
import { serializeMember } from '../members/index.js';
import type { EntitlementWire } from '../monetization/index.js';
import type { MessageWire } from '../messages/index.js';
import { serializeUser } from '../users/index.js';
import type { WireShape } from '../wireShape.js';
import { APP_PERMISSIONS_WITHOUT_BOT, type InvocationPlace } from './place.js';

/** Random bytes in an interaction token (base64url, 64 characters). */
const TOKEN_BYTES = 48;

/** A new interaction token: random, base64url. */
export function newInteractionToken(): string {
  return randomBytes(TOKEN_BYTES).toString('base64url');
}

/** The shape contract: the library's interaction with its channel and message as built here. */
type InteractionWireShape = Omit<
  WireShape<APIBaseInteraction<InteractionType, unknown>>,
  'channel' | 'message' | 'token'
> & {
  /** A partial channel (the guild channel or the DM as the user sees it) with permissions. */
  channel: { id: string; type: number; permissions: string };
  message?: MessageWire;
};

/** What the interaction object is made of. */
export interface InteractionParts {
  id: string;
  type: number;
  /** `data` as the app receives it (with `resolved`). */
  data: Record<string, unknown>;
  place: InvocationPlace;
  user: UserRecord;
  /** The invoking member (guild context). */
  member: MemberRecord | null;
  guild: GuildRecord | null;
  /** The guild channel's permission overwrites (none for a DM). */
  overwrites: readonly OverwriteRecord[];
  /** The other recipients of a DM or group DM, for its channel object. */
  recipients: ReadonlyMap<string, UserRecord>;
  /** The message a component was clicked on, as the app reads it. */
  message: MessageWire | null;
  /** The user's upload limit in the channel, in bytes. */
  attachmentSizeLimit: number;
  /** What the user (and, in a guild, the guild) holds of the app's SKUs now. */
  entitlements: readonly EntitlementWire[];
}

/**
 * The interaction object without its token (as stored); `withToken` adds it for delivery.
 * `member` (with the member's permissions in the channel) in a guild, `user` elsewhere;
 * `app_permissions` the bot's in the channel, or what an app without a bot may do.
 */
export function buildInteraction(parts: InteractionParts) {
  const { place, user } = parts;
  const { access } = place;
  const permissions = access.permissions.toString();
  const channel =
    access.privateChannel === null
      ? { ...serializeChannel(access.channel, parts.overwrites), permissions }
      : {
          ...serializePrivateChannel(access.privateChannel, parts.recipients, user.id),
          permissions,
        };
  const where =
    parts.guild !== null && parts.member !== null
      ? {
          guild_id: parts.guild.id,
          guild: {
            id: parts.guild.id,
            locale: parts.guild.preferredLocale,
            features: parts.guild.features,
          },
          member: { ...serializeMember(parts.member, user), permissions },
          guild_locale: parts.guild.preferredLocale,
        }
      : { user: serializeUser(user) };
  return {
    id: parts.id,
    application_id: place.application.id,
    type: parts.type,
    data: parts.data,
    ...where,
    channel,
    // Deprecated in favour of `channel`, and still sent: libraries read it.
    // eslint-disable-next-line @typescript-eslint/no-deprecated
    channel_id: access.channel.id,
    version: 1,
    ...(parts.message === null ? {} : { message: parts.message }),
    app_permissions: (place.botPermissions ?? APP_PERMISSIONS_WITHOUT_BOT).toString(),
    locale: user.locale,
    entitlements: parts.entitlements,
    authorizing_integration_owners: place.authorizingIntegrationOwners,
    context: place.context,
    attachment_size_limit: parts.attachmentSizeLimit,
  } satisfies InteractionWireShape;
}

export type InteractionWire = ReturnType<typeof buildInteraction>;

/** The interaction object as delivered: with its token (never stored). */
export function withToken(interaction: InteractionWire, token: string) {
  return { ...interaction, token } satisfies WireShape<
    Pick<APIBaseInteraction<InteractionType, unknown>, 'token'>
  >;
}

/** The interaction object with its token: INTERACTION_CREATE's payload. */
export type DeliveredInteraction = ReturnType<typeof withToken>;

declare module '../../domain/dispatch.js' {
  interface DispatchPayloads {
    INTERACTION_CREATE: DeliveredInteraction;
  }
}
