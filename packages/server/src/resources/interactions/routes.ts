import type { FastifyInstance } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { InvokeBody } from './schemas.js';
import type { InteractionService } from './service.js';

/** Only a person's session token invokes (the platform's own client); bots and apps cannot. */
const SESSION = { config: { auth: ['session'] } } as const;

/** POST /interactions: a person invokes an app's command, component or modal. */
export function registerInteractionRoutes(
  app: FastifyInstance,
  interactions: InteractionService,
): void {
  app.post('/interactions', SESSION, async (request, reply) => {
    const input = parseInput(InvokeBody, request.body ?? {});
    await interactions.invoke(principalOf(request), input);
    return reply.status(204).send();
  });
}
