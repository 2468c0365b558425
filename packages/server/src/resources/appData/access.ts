import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import type { ApplicationRecord, Repositories } from '../../storage/index.js';

/**
 * The application a caller acts for: a bot token for its own application, or its owner's
 * session (the developer portal). Any other caller, or an unknown id, is 10002.
 */
export async function ownApplication(
  repos: Repositories,
  principal: Principal,
  applicationId: string,
): Promise<ApplicationRecord> {
  const application = isSnowflake(applicationId)
    ? await repos.applications.findById(applicationId)
    : null;
  if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
  const allowed =
    principal.kind === 'session'
      ? application.ownerId === principal.user.id
      : principal.kind === 'bot' && principal.applicationId === application.id;
  if (!allowed) throw new ApiError('UNKNOWN_APPLICATION');
  return application;
}
