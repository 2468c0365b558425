import { applicationHasMessageContent, type ContentReader } from '../../domain/messageContent.js';
import type { Principal } from '../../http/authenticator.js';
import type { Repositories } from '../../storage/index.js';

/**
 * The MESSAGE_CONTENT reader of a REST caller: null for a person (who reads everything); for a
 * bot or an app's Bearer token, whether its application's flags grant message content.
 */
export async function contentReaderFor(
  repos: Repositories,
  principal: Principal,
): Promise<ContentReader | null> {
  if (principal.kind === 'session') return null;
  const app =
    principal.applicationId === null
      ? null
      : await repos.applications.findById(principal.applicationId);
  return {
    userId: principal.user.id,
    isApp: true,
    hasMessageContent: app !== null && applicationHasMessageContent(app.flags),
  };
}
