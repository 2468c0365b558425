import type { AdminCommand } from '../../adminCommand.js';
import { requireFlag, UsageError } from '../../cliFlags.js';
import type { ProvisionalService } from './service.js';

function durationSeconds(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  if (!/^\d{1,9}$/.test(raw) || Number(raw) < 1) {
    throw new UsageError(`--duration must be a number of seconds (1 or more), got "${raw}".`);
  }
  return Number(raw);
}

/** Operator commands of provisional accounts: bans, publisher links, legacy OIDC imports. */
export const PROVISIONAL_COMMANDS: AdminCommand<{ provisional: ProvisionalService }>[] = [
  {
    name: 'user ban',
    usage: 'guildhall user ban --user USER_ID [--reason TEXT] [--duration SECONDS]',
    summary:
      'Ban an account (permanent without --duration): its tokens are deleted and each linked game identity moves to a new restricted provisional account.',
    async run(app, flags) {
      const { ban, moved } = await app.services.provisional.ban(
        requireFlag(flags, 'user', this.usage),
        {
          reason: flags.get('reason') ?? null,
          durationSeconds: durationSeconds(flags.get('duration')),
        },
      );
      return {
        user_id: ban.userId,
        expires_at: ban.expiresAt === null ? null : new Date(ban.expiresAt).toISOString(),
        provisional_accounts: moved.map((m) => ({
          application_id: m.applicationId,
          user_id: m.provisionalUserId,
        })),
      };
    },
  },
  {
    name: 'user unban',
    usage: 'guildhall user unban --user USER_ID',
    summary: 'Lift a ban; restricted provisional accounts it made may merge again.',
    async run(app, flags) {
      const userId = requireFlag(flags, 'user', this.usage);
      if (!(await app.services.provisional.unban(userId))) {
        throw new UsageError(`user ${userId} is not banned.`);
      }
      return { user_id: userId, banned: false };
    },
  },
  {
    name: 'app link-child',
    usage: 'guildhall app link-child --parent APPLICATION_ID --child APPLICATION_ID',
    summary: 'Approve a publisher link: the parent app may exchange its tokens for the child’s.',
    async run(app, flags) {
      const link = await app.services.provisional.linkChild(
        requireFlag(flags, 'parent', this.usage),
        requireFlag(flags, 'child', this.usage),
      );
      return {
        parent_id: link.parentId,
        child_id: link.childId,
        approved_at: new Date(link.approvedAt).toISOString(),
      };
    },
  },
  {
    name: 'app unlink-child',
    usage: 'guildhall app unlink-child --parent APPLICATION_ID --child APPLICATION_ID',
    summary: 'Withdraw a publisher link approval.',
    async run(app, flags) {
      const parent = requireFlag(flags, 'parent', this.usage);
      const child = requireFlag(flags, 'child', this.usage);
      if (!(await app.services.provisional.unlinkChild(parent, child))) {
        throw new UsageError(`no link from ${parent} to ${child}.`);
      }
      return { parent_id: parent, child_id: child, linked: false };
    },
  },
  {
    name: 'app oidc-import',
    usage: 'guildhall app oidc-import --app APPLICATION_ID --issuer URL --client-id ID',
    summary:
      'Import an OpenID provider configuration from before the issuer rules, unchecked (marked legacy; editing it later runs the checks).',
    async run(app, flags) {
      const provider = await app.services.provisional.saveOidcProvider({
        applicationId: requireFlag(flags, 'app', this.usage),
        ownerId: null,
        issuer: requireFlag(flags, 'issuer', this.usage),
        clientId: requireFlag(flags, 'client-id', this.usage),
        legacy: true,
      });
      return {
        application_id: provider.applicationId,
        issuer: provider.issuer,
        client_id: provider.clientId,
        validation: provider.validation,
      };
    },
  },
];
