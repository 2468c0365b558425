/**
 * @module resources/applications/intentReview: the one rule for when an application's
 * privileged intents need a review (spec, privileged gateway intents): an app reaching fewer
 * users than the threshold (10,000) turns them on itself; from the threshold on, a review is
 * required. "Reaching" is the app's `approximate_user_count` (docs/applications.md#user-count):
 * the distinct members of its bot's guilds and its user installs. The application PATCH (the
 * self-serve limited flags) and the gateway's IDENTIFY (close 4014) both ask this function.
 */
import type { Repositories } from '../../storage/index.js';

/** How many users the application reaches, and whether that many needs a review. */
export interface IntentReview {
  users: number;
  required: boolean;
}

/** Counts the users `applicationId` reaches and compares them with `threshold`. */
export async function intentReview(
  repos: Pick<Repositories, 'applications'>,
  applicationId: string,
  threshold: number,
): Promise<IntentReview> {
  const users = await repos.applications.approximateUserCount(applicationId);
  return { users, required: users >= threshold };
}
