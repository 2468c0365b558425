/**
 * POST /interactions/{interaction_id}/{interaction_token}/callback: an app's initial response.
 * No Authorization header: the token authenticates. JSON, or multipart (payload_json plus
 * files[n]) for a response with attachments.
 */
import type { FastifyInstance } from 'fastify';
import { registerMultipart } from '../../http/multipart.js';
import { parseInput } from '../../http/validate.js';
import { readMessageBody, withFiles, type MessageRouteOptions } from '../messages/index.js';
import { CallbackParams, CallbackQuery } from './callbackSchemas.js';
import type { InteractionResponses } from './responses.js';

/** Registers the callback route: 204, or 200 with the callback response when `with_response`. */
export function registerInteractionCallbackRoutes(
  app: FastifyInstance,
  responses: Pick<InteractionResponses, 'find' | 'respond'>,
  options: MessageRouteOptions,
): void {
  // The multipart parser exists only in this scope. The interaction is found (10062) before the
  // body is read, so an unknown token never streams files.
  void app.register(async (scope) => {
    await registerMultipart(scope);
    scope.post(
      '/interactions/:interaction_id/:interaction_token/callback',
      { config: { auth: 'none' } },
      async (request, reply) => {
        const params = parseInput(CallbackParams, request.params);
        const query = parseInput(CallbackQuery, request.query);
        const interaction = await responses.find(params.interaction_id, params.interaction_token);
        const { body, files } = await readMessageBody(request, options, () => undefined);
        const answer = await withFiles(files, () =>
          responses.respond(interaction, { body, files }),
        );
        if (query.with_response === true) return answer;
        return reply.status(204).send();
      },
    );
  });
}
