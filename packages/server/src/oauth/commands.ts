import type { AdminCommand } from '../adminCommand.js';
import { requireFlag, UsageError } from '../cliFlags.js';

function yesNo(raw: string | undefined, usage: string): boolean {
  if (raw === 'true' || raw === 'yes') return true;
  if (raw === 'false' || raw === 'no') return false;
  throw new UsageError(`--approved must be true or false.\nUsage: ${usage}`);
}

/** Operator commands of OAuth2: the approval an application needs for identify.premium. */
export const OAUTH_COMMANDS: AdminCommand[] = [
  {
    name: 'app identify-premium',
    usage: 'guildhall app identify-premium --app APPLICATION_ID --approved true|false',
    summary:
      'Approve (or withdraw) the identify.premium scope for an application; without it premium_type reads 0.',
    async run(app, flags) {
      const applicationId = requireFlag(flags, 'app', this.usage);
      const approved = yesNo(flags.get('approved'), this.usage);
      const found = /^\d{1,20}$/.test(applicationId)
        ? await app.storage.applications.findById(applicationId)
        : null;
      if (found === null) throw new UsageError(`no application ${applicationId}.`);
      await app.storage.applications.update(found.id, { identifyPremiumApproved: approved });
      return { application_id: found.id, identify_premium_approved: approved };
    },
  },
];
