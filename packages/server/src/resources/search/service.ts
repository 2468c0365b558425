import { PermissionFlags as P, isSnowflake } from '@guildhall/protocol';
import { hasAll } from '../../domain/permissions.js';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ChannelRecord, MessageSearchQuery } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import { accessLoader, type GuildAccess } from '../access/index.js';
import {
  contentReaderFor,
  loadMessageContext,
  serializeMessage,
  type AttachmentLinks,
} from '../messages/index.js';
import type { SearchIndexer } from './indexer.js';
import { splitNegated, searchTerms, type SearchEmbedType, type SearchInput } from './schemas.js';

/** Seconds a client is told to wait while a guild's index is built (the platform's example). */
export const INDEX_RETRY_AFTER_SECONDS = 2;

/** The query's embed types as wire embed types. */
const EMBED_TYPE: Record<SearchEmbedType, string> = {
  image: 'image',
  video: 'video',
  gif: 'gifv',
  sound: 'sound',
  article: 'article',
};

const READ = P.VIEW_CHANNEL | P.READ_MESSAGE_HISTORY;

/**
 * The channels a search covers: those the caller may read (VIEW_CHANNEL and
 * READ_MESSAGE_HISTORY), narrowed to `channel_id` when given, without age-restricted ones unless
 * `include_nsfw`.
 * @throws ApiError 50013 when the caller may read no channel of the guild; 50001 when none of the
 *   channels it named is one it may read.
 */
async function searchedChannels(
  deps: Pick<ServiceDeps, 'storage'>,
  access: GuildAccess,
  input: SearchInput,
): Promise<ChannelRecord[]> {
  const { storage } = deps;
  const channels = await storage.channels.listByGuild(access.guild.id);
  const overwrites = await storage.overwrites.listByChannels(channels.map((c) => c.id));
  const readable = channels.filter((channel) =>
    hasAll(
      access.inChannel(
        channel,
        overwrites.filter((o) => o.channelId === channel.id),
      ),
      READ,
    ),
  );
  if (readable.length === 0) throw new ApiError('MISSING_PERMISSIONS');
  let searched = readable;
  if (input.channel_id !== undefined) {
    const named = new Set(input.channel_id);
    searched = readable.filter((channel) => named.has(channel.id));
    // Channels the caller cannot read are dropped; naming only such channels is refused.
    if (searched.length === 0) throw new ApiError('MISSING_ACCESS');
  }
  return input.include_nsfw === true ? searched : searched.filter((channel) => !channel.nsfw);
}

/** The storage query of a checked request. */
function toQuery(guildId: string, channels: readonly ChannelRecord[], input: SearchInput) {
  const content = input.content?.trim() ?? '';
  const query: MessageSearchQuery = {
    guildId,
    channelIds: channels.map((channel) => channel.id),
    terms: content === '' ? null : searchTerms(content),
    sortBy: input.sort_by,
    sortOrder: input.sort_order,
    limit: input.limit,
    offset: input.offset,
  };
  const lower = (values: readonly string[]) => values.map((value) => value.toLowerCase());
  if (input.author_id) query.authorIds = input.author_id;
  if (input.author_type) query.authorTypes = splitNegated(input.author_type);
  if (input.mentions) query.mentions = input.mentions;
  if (input.mentions_role_id) query.mentionRoleIds = input.mentions_role_id;
  if (input.mention_everyone !== undefined) query.mentionEveryone = input.mention_everyone;
  if (input.replied_to_user_id) query.repliedToUserIds = input.replied_to_user_id;
  if (input.replied_to_message_id) query.repliedToMessageIds = input.replied_to_message_id;
  if (input.pinned !== undefined) query.pinned = input.pinned;
  if (input.has) query.has = splitNegated(input.has);
  if (input.embed_type) query.embedTypes = input.embed_type.map((type) => EMBED_TYPE[type]);
  if (input.embed_provider) query.embedProviders = input.embed_provider;
  if (input.link_hostname) query.linkHostnames = lower(input.link_hostname);
  if (input.attachment_filename) query.attachmentFilenames = lower(input.attachment_filename);
  if (input.attachment_extension) {
    query.attachmentExtensions = lower(input.attachment_extension.map((e) => e.replace(/^\./, '')));
  }
  if (input.min_id !== undefined) query.minId = input.min_id;
  if (input.max_id !== undefined) query.maxId = input.max_id;
  return query;
}

/**
 * GET /guilds/{id}/messages/search over the database's full-text index. Needs
 * READ_MESSAGE_HISTORY, and for apps the MESSAGE_CONTENT intent; finds only messages in channels
 * the caller may read.
 */
export function createMessageSearchService(
  deps: ServiceDeps,
  options: { links: () => AttachmentLinks; indexer: SearchIndexer },
) {
  const { storage, clock } = deps;
  const accessFor = accessLoader(clock);

  return {
    /**
     * Drops a guild's search index and builds it again in the background (an operator's repair);
     * searches answer 202 until it is done.
     * @throws ApiError 10004 for an unknown guild.
     */
    async reindex(guildId: string) {
      const guild = isSnowflake(guildId) ? await storage.guilds.findById(guildId) : null;
      if (guild === null) throw new ApiError('UNKNOWN_GUILD');
      await storage.messageSearch.reindex(guild.id, clock.now());
      options.indexer.ensure(guild.id);
    },

    async search(principal: Principal, guildId: string, input: SearchInput) {
      const access = await accessFor(storage, principal, guildId);
      // Apps need the MESSAGE_CONTENT intent: search matches content they could not read.
      const reader = await contentReaderFor(storage, principal);
      if (reader !== null && !reader.hasMessageContent) throw new ApiError('MISSING_ACCESS');
      const channels = await searchedChannels(deps, access, input);

      const status = await storage.messageSearch.status(access.guild.id);
      if (!status.ready) {
        options.indexer.ensure(access.guild.id);
        throw new ApiError('SEARCH_INDEX_NOT_READY', {
          extra: {
            documents_indexed: status.documentsIndexed,
            retry_after: INDEX_RETRY_AFTER_SECONDS,
          },
        });
      }

      const query = toQuery(access.guild.id, channels, input);
      // Text without a single word (only punctuation, say) matches no message.
      const found =
        channels.length === 0 || query.terms?.length === 0
          ? { messageIds: [], total: 0 }
          : await storage.messageSearch.search(query);
      const records = await storage.messages.findByIds(found.messageIds);
      const byId = new Map(records.map((message) => [message.id, message]));
      const messages = found.messageIds.flatMap((id) => {
        const message = byId.get(id);
        return message === undefined ? [] : [message];
      });
      const context = await loadMessageContext(storage, messages, {
        links: options.links(),
        viewerId: principal.user.id,
        reader,
        knownUsers: [principal.user],
        reactions: false,
      });
      return {
        doing_deep_historical_index: false,
        total_results: found.total,
        // One message per inner array (the platform no longer sends context around a hit).
        messages: messages.map((message) => [{ ...serializeMessage(message, context), hit: true }]),
        threads: [] as unknown[],
        members: [] as unknown[],
      };
    },
  };
}

export type MessageSearchService = ReturnType<typeof createMessageSearchService>;
