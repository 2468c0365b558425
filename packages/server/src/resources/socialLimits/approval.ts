/**
 * @module resources/socialLimits/approval: an operator's Social SDK approval of an application,
 * which lifts its pre-approval limits (the route and the `guildhall app approve-social` command).
 */
import { z } from 'zod';
import type { AdminCommand } from '../../adminCommand.js';
import { UsageError, requireFlag } from '../../cliFlags.js';
import { ApiError } from '../../errors/index.js';
import type { ApplicationRecord, Storage } from '../../storage/index.js';

const SNOWFLAKE = /^\d{1,20}$/;

/** Sets whether an application is approved; null when there is no such application. */
export async function setSocialApproval(
  storage: Pick<Storage, 'applications'>,
  applicationId: string,
  approved: boolean,
): Promise<ApplicationRecord | null> {
  if (!SNOWFLAKE.test(applicationId)) return null;
  return storage.applications.update(applicationId, { socialApproved: approved });
}

/** The answer of the route and the command. */
export function approvalWire(application: ApplicationRecord) {
  return { application_id: application.id, social_approved: application.socialApproved };
}

export const ApprovalParams = z.object({ application_id: z.string().regex(SNOWFLAKE) });

/** Sets the approval, or throws 10002 for an unknown application. */
export async function approveOrThrow(
  storage: Pick<Storage, 'applications'>,
  applicationId: string,
  approved: boolean,
): Promise<ApplicationRecord> {
  const application = await setSocialApproval(storage, applicationId, approved);
  if (application === null) throw new ApiError('UNKNOWN_APPLICATION');
  return application;
}

const USAGE = 'guildhall app approve-social --app APPLICATION_ID [--approved true|false]';

export const SOCIAL_COMMANDS: AdminCommand[] = [
  {
    name: 'app approve-social',
    usage: USAGE,
    summary:
      'Approve an application for the Social SDK (lifts the pre-approval limits on lobby writes and DMs); --approved false withdraws it.',
    async run(app, flags) {
      const applicationId = requireFlag(flags, 'app', this.usage);
      const raw = flags.get('approved') ?? 'true';
      if (raw !== 'true' && raw !== 'false') {
        throw new UsageError(`--approved must be true or false.\nUsage: ${USAGE}`);
      }
      const application = await setSocialApproval(app.storage, applicationId, raw === 'true');
      if (application === null) throw new UsageError(`no application ${applicationId}.`);
      return approvalWire(application);
    },
  },
];
