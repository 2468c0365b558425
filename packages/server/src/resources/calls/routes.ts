import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { Snowflake } from '../../http/schemas.js';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import type { RingingService } from './ringing.js';

/** A user token's routes: a bot is refused inside (20001), so sessions and Bearer tokens. */
const CALL_AUTH = { config: { auth: ['bot', 'session', 'bearer'] } } as const;

const ChannelParams = z.object({ channel_id: Snowflake });

/** `{recipients}`: the users to ring or stop ringing; absent or null: the default. */
const RecipientsBody = z
  .object({ recipients: z.array(Snowflake).max(10).nullable().optional() })
  .strict();

/** The ringing of DM and group-DM calls (docs/voice.md#dm-and-group-dm-calls). */
export function registerCallRoutes(app: FastifyInstance, deps: { ringing: RingingService }) {
  const { ringing } = deps;

  app.get('/channels/:channel_id/call', CALL_AUTH, (request) =>
    ringing.ringable(principalOf(request), parseInput(ChannelParams, request.params).channel_id),
  );

  app.post('/channels/:channel_id/call/ring', CALL_AUTH, async (request, reply) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    const body = parseInput(RecipientsBody, request.body ?? {});
    await ringing.ring(principalOf(request), channel_id, body.recipients ?? null);
    return reply.status(204).send();
  });

  app.post('/channels/:channel_id/call/stop-ringing', CALL_AUTH, async (request, reply) => {
    const { channel_id } = parseInput(ChannelParams, request.params);
    const body = parseInput(RecipientsBody, request.body ?? {});
    await ringing.stopRinging(principalOf(request), channel_id, body.recipients ?? null);
    return reply.status(204).send();
  });
}
