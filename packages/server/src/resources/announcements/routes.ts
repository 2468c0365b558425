import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH, reasonOf } from '../access/index.js';
import type { AnnouncementService } from './service.js';

const ChannelParams = z.object({ channel_id: z.string() });
const MessageParams = z.object({ channel_id: z.string(), message_id: z.string() });
const FollowBody = z.object({ webhook_channel_id: Snowflake });

/** Following an announcement channel and crossposting its messages. */
export function registerAnnouncementRoutes(
  app: FastifyInstance,
  announcements: AnnouncementService,
): void {
  app.post('/channels/:channel_id/followers', AUTH, (request) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    const body = parseInput(FollowBody, request.body ?? {});
    return announcements.follow(principalOf(request), {
      channelId: channel_id,
      targetChannelId: body.webhook_channel_id,
      reason: reasonOf(request),
    });
  });

  app.post('/channels/:channel_id/messages/:message_id/crosspost', AUTH, (request) => {
    const params = parseInput(MessageParams, request.params);
    return announcements.crosspost(principalOf(request), {
      channelId: params.channel_id,
      messageId: params.message_id,
    });
  });
}
