/**
 * @module http/applicationAlias: a bot names its own application by its bot user's id.
 *
 * On the platform an application's bot user has the application's id, and client libraries take
 * the application id from the bot token's first segment (the bot user's id, base64). Guildhall
 * gives new applications one id for both (resources/applications). Applications made before
 * that have a bot user with an id of its own, and their existing bot tokens carry it: so a bot
 * token's `{application_id}` route parameter that is the bot's own user id is read as its
 * application's id. Only the caller's own id is translated, from the principal alone (no read);
 * any other id reaches the route as sent. docs/applications.md#one-id-for-the-app-and-its-bot.
 */
import type { FastifyRequest } from 'fastify';

/** The route parameter every `/applications/{id}/…` path names its application with. */
const APPLICATION_PARAM = 'application_id';

/**
 * Rewrites `params.application_id` to the caller's application id when the caller is a bot
 * token and the parameter is its bot user's id (a `preValidation` hook: after authentication,
 * before the handler reads its parameters).
 */
export function aliasBotApplicationId(request: FastifyRequest): void {
  const principal = request.principal;
  if (principal?.kind !== 'bot' || principal.applicationId === null) return;
  const params = request.params as Record<string, unknown> | undefined;
  if (params?.[APPLICATION_PARAM] !== principal.user.id) return;
  params[APPLICATION_PARAM] = principal.applicationId;
}
