/** The names a webhook may take, as on the platform. */
import { invalidField } from '../../errors/index.js';

/** Substrings a webhook's name may not hold (case-insensitive), as on the platform. */
const FORBIDDEN_NAME_PARTS = ['clyde', 'discord'];

/**
 * Checks a webhook's (or an execute's) name: 50035 USERNAME_INVALID_CONTAINS at `field` when
 * it holds "clyde" or "discord" in any case.
 */
export function assertWebhookName(field: string, name: string): void {
  const lower = name.toLowerCase();
  for (const part of FORBIDDEN_NAME_PARTS) {
    if (lower.includes(part)) {
      throw invalidField([field], 'USERNAME_INVALID_CONTAINS', `Username cannot contain "${part}"`);
    }
  }
}
