/**
 * `data.resolved` of an interaction: the users, members, roles, channels, messages and
 * attachments its options, target or selected values name, each checked to exist where the
 * interaction happens (50035 at the path that named it otherwise). Members carry their
 * permissions in the interaction's channel; channels the invoking user's permissions there and,
 * when the app's bot is in the guild, the bot's (`app_permissions`); messages are serialized as
 * the app reads them (the MESSAGE_CONTENT rule).
 */
import { ChannelTypes } from '@guildhall/protocol';
import type {
  APIAttachment,
  APIInteractionDataResolvedChannel,
  APIInteractionDataResolvedGuildMember,
} from 'discord-api-types/v10';
import { applicationHasMessageContent } from '../../domain/messageContent.js';
import { invalidField } from '../../errors/index.js';
import type { MessageRecord, Repositories, UserRecord } from '../../storage/index.js';
import { serializePartialMember } from '../members/index.js';
import {
  loadMessageContext,
  serializeMessage,
  type AttachmentLinks,
  type MessageWire,
} from '../messages/index.js';
import { serializeRole, type RoleWire } from '../roles/index.js';
import { serializeUser, type UserWire } from '../users/index.js';
import type { WireShape } from '../wireShape.js';
import type { OptionReference } from './options.js';
import { permissionsIn, type InvocationPlace } from './place.js';

/** Thread channel types (their resolved form carries parent_id and thread_metadata). */
const THREAD_TYPES = new Set<number>([
  ChannelTypes.ANNOUNCEMENT_THREAD,
  ChannelTypes.PUBLIC_THREAD,
  ChannelTypes.PRIVATE_THREAD,
]);

type ResolvedMember = WireShape<
  Omit<APIInteractionDataResolvedGuildMember, 'avatar_decoration_data'>
>;
type ResolvedChannel = Pick<
  WireShape<APIInteractionDataResolvedChannel>,
  'id' | 'name' | 'type' | 'permissions' | 'app_permissions'
> & { parent_id?: string | null };

/** The resolved data of an interaction, each map present only when it holds something. */
export interface ResolvedWire {
  users?: Record<string, UserWire>;
  members?: Record<string, ResolvedMember>;
  roles?: Record<string, RoleWire>;
  channels?: Record<string, ResolvedChannel>;
  messages?: Record<string, MessageWire>;
  attachments?: Record<string, WireShape<APIAttachment>>;
}

/** What resolving needs: where, what was named, and the files uploaded with the interaction. */
export interface ResolveRequest {
  place: InvocationPlace;
  userId: string;
  nowMs: number;
  references: readonly OptionReference[];
  /** A USER command's target, a MESSAGE command's target message (already checked). */
  targetUserIds?: readonly string[];
  targetMessages?: readonly MessageRecord[];
  /** The uploaded files' attachment objects, by the id the interaction names them with. */
  attachments?: ReadonlyMap<string, WireShape<APIAttachment>>;
}

function unknownAt(path: (string | number)[], what: string): never {
  throw invalidField(path, 'INTERACTION_RESOLVED_UNKNOWN', `Unknown ${what}.`);
}

/** Builds `resolved` (undefined when nothing is named), checking every reference. */
export async function resolveReferences(
  repos: Repositories,
  request: ResolveRequest,
  links: AttachmentLinks,
): Promise<ResolvedWire | undefined> {
  const { place, nowMs } = request;
  const guildId = place.access.guildId;
  const users = new Map<string, UserRecord>();
  const out: ResolvedWire = {};
  const roles: Record<string, RoleWire> = {};
  const channels: Record<string, ResolvedChannel> = {};
  const attachments: Record<string, WireShape<APIAttachment>> = {};
  const userIds = new Set(request.targetUserIds ?? []);

  const findUser = async (id: string) => {
    const known = users.get(id);
    if (known !== undefined) return known;
    const found = await repos.users.findById(id);
    if (found !== null) users.set(id, found);
    return found;
  };
  const findRole = async (id: string) => {
    if (roles[id] !== undefined) return true;
    const role = guildId === null ? null : await repos.roles.findById(guildId, id);
    if (role !== null) roles[id] = serializeRole(role);
    return role !== null;
  };

  for (const ref of request.references) {
    switch (ref.kind) {
      case 'user':
        if ((await findUser(ref.id)) === null) unknownAt(ref.path, 'user');
        userIds.add(ref.id);
        break;
      case 'role':
        if (!(await findRole(ref.id))) unknownAt(ref.path, 'role');
        break;
      case 'mentionable':
        if (await findRole(ref.id)) break;
        if ((await findUser(ref.id)) === null) unknownAt(ref.path, 'user or role');
        userIds.add(ref.id);
        break;
      case 'channel': {
        const channel = await resolveChannel(repos, { ...request, channelId: ref.id });
        if (channel === null) unknownAt(ref.path, 'channel');
        if (ref.channelTypes.length > 0 && !ref.channelTypes.includes(channel.type)) {
          throw invalidField(
            ref.path,
            'CHANNEL_TYPE_INVALID',
            'This channel type is not allowed here.',
          );
        }
        channels[ref.id] = channel;
        break;
      }
      case 'attachment': {
        const attachment = request.attachments?.get(ref.id);
        if (attachment === undefined) unknownAt(ref.path, 'attachment');
        attachments[attachment.id] = attachment;
        break;
      }
    }
  }

  for (const id of userIds) {
    const user = await findUser(id);
    if (user === null) continue;
    (out.users ??= {})[id] = serializeUser(user);
    if (guildId === null) continue;
    const member = await repos.members.find(guildId, id);
    if (member === null) continue;
    const permissions = await permissionsIn(repos, {
      channelId: place.access.channel.id,
      userId: id,
      nowMs,
    });
    (out.members ??= {})[id] = {
      ...serializePartialMember(member),
      permissions: (permissions ?? 0n).toString(),
    };
  }
  if (Object.keys(roles).length > 0) out.roles = roles;
  if (Object.keys(channels).length > 0) out.channels = channels;
  if (Object.keys(attachments).length > 0) out.attachments = attachments;
  const messages = request.targetMessages ?? [];
  if (messages.length > 0)
    out.messages = await messagesAsAppSees(repos, { place, messages, links });
  return Object.keys(out).length === 0 ? undefined : out;
}

/**
 * A channel an option names, as resolved: in a guild, one of its channels the invoking user
 * can view; in a DM or group DM, that channel itself. Null when it is neither.
 */
async function resolveChannel(
  repos: Repositories,
  request: ResolveRequest & { channelId: string },
): Promise<ResolvedChannel | null> {
  const { place } = request;
  const here = place.access.channel;
  if (place.access.guildId === null) {
    if (request.channelId !== here.id) return null;
    return {
      id: here.id,
      name: here.name ?? '',
      type: here.type,
      permissions: place.access.permissions.toString(),
    };
  }
  const context = await repos.channels.findAccessContext(request.channelId, request.userId);
  if (context?.channel.guildId !== place.access.guildId) return null;
  const permissions = await permissionsIn(repos, request);
  if (permissions === null) return null;
  const botId = place.application.botUserId;
  const appPermissions =
    place.botInGuild && botId !== null
      ? await permissionsIn(repos, { ...request, userId: botId })
      : null;
  const { channel } = context;
  return {
    id: channel.id,
    name: channel.name ?? '',
    type: channel.type,
    permissions: permissions.toString(),
    ...(appPermissions === null ? {} : { app_permissions: appPermissions.toString() }),
    ...(THREAD_TYPES.has(channel.type) ? { parent_id: channel.parentId } : {}),
  };
}

/** Messages as the app reads them: without content unless MESSAGE_CONTENT or an exemption. */
export async function messagesAsAppSees(
  repos: Repositories,
  request: {
    place: InvocationPlace;
    messages: readonly MessageRecord[];
    links: AttachmentLinks;
  },
): Promise<Record<string, MessageWire>> {
  const { application } = request.place;
  const viewerId = application.botUserId ?? application.id;
  const context = await loadMessageContext(repos, request.messages, {
    links: request.links,
    viewerId,
    reader: {
      userId: viewerId,
      isApp: true,
      hasMessageContent: applicationHasMessageContent(application.flags),
    },
  });
  const out: Record<string, MessageWire> = {};
  for (const message of request.messages) out[message.id] = serializeMessage(message, context);
  return out;
}
