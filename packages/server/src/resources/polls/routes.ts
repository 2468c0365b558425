import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Snowflake, queryInt } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { AUTH } from '../access/index.js';
import { POLL_LIMITS } from '../messages/index.js';
import type { PollService } from './service.js';

const PollParams = z.object({ channel_id: z.string(), message_id: z.string() });
const AnswerParams = PollParams.extend({
  answer_id: z.coerce.number().int().min(1).max(POLL_LIMITS.answers),
});
/** Voters per page: 25 by default, 100 at most. */
const VotersQuery = z.object({
  after: Snowflake.optional(),
  limit: queryInt(1, 100).default(25),
});
const VoteBody = z.object({
  answer_ids: z.array(z.number().int().min(1).max(POLL_LIMITS.answers)).max(POLL_LIMITS.answers),
});

/** Poll voters, votes and the early end (docs/polls.md). */
export function registerPollRoutes(app: FastifyInstance, polls: PollService): void {
  app.get('/channels/:channel_id/polls/:message_id/answers/:answer_id', AUTH, (request) => {
    const params = parseInput(AnswerParams, request.params);
    const query = parseInput(VotersQuery, request.query ?? {});
    return polls.voters(principalOf(request), {
      channelId: params.channel_id,
      messageId: params.message_id,
      answerId: params.answer_id,
      limit: query.limit,
      ...(query.after === undefined ? {} : { after: query.after }),
    });
  });

  // The web client's vote (a person's session; bots cannot vote).
  app.put(
    '/channels/:channel_id/polls/:message_id/answers/@me',
    { config: { auth: ['session'] } },
    async (request, reply) => {
      const params = parseInput(PollParams, request.params);
      const body = parseInput(VoteBody, request.body ?? {});
      await polls.vote(principalOf(request), {
        channelId: params.channel_id,
        messageId: params.message_id,
        answerIds: body.answer_ids,
      });
      return reply.status(204).send();
    },
  );

  app.post('/channels/:channel_id/polls/:message_id/expire', AUTH, (request) => {
    const params = parseInput(PollParams, request.params);
    return polls.expire(principalOf(request), {
      channelId: params.channel_id,
      messageId: params.message_id,
    });
  });
}
