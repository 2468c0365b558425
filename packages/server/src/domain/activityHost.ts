/**
 * @module domain/activityHost: the `--activity-host` pattern's rules, below both config.ts, which
 * checks the setting, and activities/proxyHost.ts, which serves the origins it names.
 */

/** The placeholder of the pattern; it must be the whole first label. */
export const APPLICATION_ID_PLACEHOLDER = '{application_id}';

export const DEFAULT_ACTIVITY_HOST = `${APPLICATION_ID_PLACEHOLDER}.activities.localhost`;

/** One DNS label: letters, digits and inner hyphens, at most 63 characters. */
const LABEL = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** Why the pattern cannot name activity origins, or null when it can. */
export function activityHostProblem(pattern: string): string | null {
  const prefix = `${APPLICATION_ID_PLACEHOLDER}.`;
  if (!pattern.toLowerCase().startsWith(prefix)) {
    return `it must start with ${prefix}`;
  }
  const suffix = pattern.slice(prefix.length).toLowerCase();
  const labels = suffix.split('.');
  if (suffix.length > 200 || labels.length < 1 || !labels.every((label) => LABEL.test(label))) {
    return 'after the first label it must be a host name (letters, digits, hyphens and dots)';
  }
  return null;
}
