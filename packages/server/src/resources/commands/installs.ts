import type { Repositories } from '../../storage/index.js';

/**
 * Whether the application is installed in the guild: its bot is a member there (an install
 * with the bot scope). Guildhall records no install with `applications.commands` alone, so this
 * is the one kind of guild install (docs/commands.md#availability).
 */
export async function isInstalledInGuild(
  repos: Repositories,
  applicationId: string,
  guildId: string,
): Promise<boolean> {
  const application = await repos.applications.findById(applicationId);
  if (application?.botUserId == null) return false;
  return (await repos.members.find(guildId, application.botUserId)) !== null;
}
