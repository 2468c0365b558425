import type { FastifyInstance } from 'fastify';
import { GuildParams } from '../../http/schemas.js';
import type { Principal } from '../../http/authenticator.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH, reasonOf } from '../access/index.js';
import type { ThreadListService } from './lists.js';
import type { ThreadMemberService } from './members.js';
import { isThreadType } from './rules.js';
import {
  ArchivedQuery,
  CreateThreadBody,
  ListThreadMembersQuery,
  ModifyThreadBody,
  MyArchivedQuery,
  ThreadFromMessageBody,
  ThreadMemberParams,
  ThreadMessageParams,
  ThreadParams,
  ThreadSearchQuery,
  WithMemberQuery,
} from './schemas.js';
import type { ThreadService } from './service.js';
import type { Storage } from '../../storage/index.js';
import { isSnowflake } from '@guildhall/protocol';

export interface ThreadRouteServices {
  threads: ThreadService;
  threadMembers: ThreadMemberService;
  threadLists: ThreadListService;
}

/**
 * GET, PATCH and DELETE /channels/{id} of a thread (the channel routes ask first): each answers
 * for a thread id, else null.
 */
export function threadChannelRoutes(storage: Storage, threads: ThreadService) {
  const isThread = async (channelId: string) => {
    if (!isSnowflake(channelId)) return false;
    const channel = await storage.channels.findById(channelId);
    return channel !== null && isThreadType(channel.type);
  };
  return {
    async get(principal: Principal, channelId: string) {
      return (await isThread(channelId)) ? threads.get(principal, channelId) : null;
    },
    async modify(
      principal: Principal,
      channelId: string,
      request: { body: unknown; reason: string | null },
    ) {
      if (!(await isThread(channelId))) return null;
      return threads.modify(principal, channelId, {
        ...parseInput(ModifyThreadBody, request.body),
        reason: request.reason,
      });
    },
    async delete(principal: Principal, channelId: string, reason: string | null) {
      return (await isThread(channelId)) ? threads.delete(principal, channelId, reason) : null;
    },
  };
}

export type ThreadChannelRoutes = ReturnType<typeof threadChannelRoutes>;

/** Threads, their members and lists (docs/threads.md). */
export function registerThreadRoutes(app: FastifyInstance, services: ThreadRouteServices): void {
  const { threads, threadMembers, threadLists } = services;

  app.post('/channels/:channel_id/threads', AUTH, async (request, reply) => {
    const { channel_id } = parseInput(ThreadParams, request.params);
    const input = parseInput(CreateThreadBody, request.body ?? {});
    const created = await threads.create(principalOf(request), channel_id, {
      ...input,
      reason: reasonOf(request),
    });
    return reply.status(201).send(created);
  });

  app.post('/channels/:channel_id/messages/:message_id/threads', AUTH, async (request, reply) => {
    const params = parseInput(ThreadMessageParams, request.params);
    const input = parseInput(ThreadFromMessageBody, request.body ?? {});
    const created = await threads.createFromMessage(
      principalOf(request),
      { channelId: params.channel_id, messageId: params.message_id },
      { ...input, reason: reasonOf(request) },
    );
    return reply.status(201).send(created);
  });

  app.put('/channels/:channel_id/thread-members/@me', AUTH, async (request, reply) => {
    const { channel_id } = parseInput(ThreadParams, request.params);
    await threadMembers.join(principalOf(request), channel_id);
    return reply.status(204).send();
  });

  app.delete('/channels/:channel_id/thread-members/@me', AUTH, async (request, reply) => {
    const { channel_id } = parseInput(ThreadParams, request.params);
    await threadMembers.leave(principalOf(request), channel_id);
    return reply.status(204).send();
  });

  app.put('/channels/:channel_id/thread-members/:user_id', AUTH, async (request, reply) => {
    const params = parseInput(ThreadMemberParams, request.params);
    await threadMembers.add(principalOf(request), {
      threadId: params.channel_id,
      userId: params.user_id,
    });
    return reply.status(204).send();
  });

  app.delete('/channels/:channel_id/thread-members/:user_id', AUTH, async (request, reply) => {
    const params = parseInput(ThreadMemberParams, request.params);
    await threadMembers.remove(principalOf(request), {
      threadId: params.channel_id,
      userId: params.user_id,
    });
    return reply.status(204).send();
  });

  app.get('/channels/:channel_id/thread-members/:user_id', AUTH, (request) => {
    const params = parseInput(ThreadMemberParams, request.params);
    const query = parseInput(WithMemberQuery, request.query ?? {});
    return threadMembers.get(principalOf(request), {
      threadId: params.channel_id,
      userId: params.user_id,
      withMember: query.with_member ?? false,
    });
  });

  app.get('/channels/:channel_id/thread-members', AUTH, (request) => {
    const { channel_id } = parseInput(ThreadParams, request.params);
    const query = parseInput(ListThreadMembersQuery, request.query ?? {});
    return threadMembers.list(principalOf(request), {
      threadId: channel_id,
      withMember: query.with_member ?? false,
      limit: query.limit,
      ...(query.after === undefined ? {} : { after: query.after }),
    });
  });

  app.get('/guilds/:guild_id/threads/active', AUTH, (request) =>
    threadLists.active(principalOf(request), parseInput(GuildParams, request.params).guild_id),
  );

  for (const kind of ['public', 'private'] as const) {
    app.get(`/channels/:channel_id/threads/archived/${kind}`, AUTH, (request) => {
      const { channel_id } = parseInput(ThreadParams, request.params);
      const query = parseInput(ArchivedQuery, request.query ?? {});
      return threadLists.archived(principalOf(request), {
        channelId: channel_id,
        kind,
        limit: query.limit,
        ...(query.before === undefined ? {} : { before: query.before }),
      });
    });
  }

  app.get('/channels/:channel_id/users/@me/threads/archived/private', AUTH, (request) => {
    const { channel_id } = parseInput(ThreadParams, request.params);
    const query = parseInput(MyArchivedQuery, request.query ?? {});
    return threadLists.archived(principalOf(request), {
      channelId: channel_id,
      kind: 'joined',
      limit: query.limit,
      ...(query.before === undefined ? {} : { before: query.before }),
    });
  });

  app.get('/channels/:channel_id/threads/search', AUTH, (request) => {
    const { channel_id } = parseInput(ThreadParams, request.params);
    return threadLists.search(
      principalOf(request),
      channel_id,
      parseInput(ThreadSearchQuery, request.query ?? {}),
    );
  });
}
