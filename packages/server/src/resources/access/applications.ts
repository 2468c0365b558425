/**
 * @module resources/access/applications: the application a route names, found or refused as the
 * platform refuses an unknown one (10002 Unknown Application), for every resource that serves an
 * application's own routes (monetization, game stats).
 */
import { isSnowflake } from '@guildhall/protocol';
import { ApiError } from '../../errors/index.js';
import type { ApplicationRecord, Repositories } from '../../storage/index.js';

/** The application of an id, or 10002. */
export async function findApplication(
  repos: Pick<Repositories, 'applications'>,
  applicationId: string,
): Promise<ApplicationRecord> {
  const app = isSnowflake(applicationId) ? await repos.applications.findById(applicationId) : null;
  if (app === null) throw new ApiError('UNKNOWN_APPLICATION');
  return app;
}
