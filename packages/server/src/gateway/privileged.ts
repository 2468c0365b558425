import { ApplicationFlags as F, GatewayIntentBits as I } from '@guildhall/protocol';
import type { ApplicationRecord, Storage } from '../storage/index.js';

/** Each privileged intent with the application flags that enable it (either one). */
export const PRIVILEGED_INTENT_FLAGS = [
  {
    intent: I.GUILD_MEMBERS,
    name: 'GUILD_MEMBERS',
    flags: F.GATEWAY_GUILD_MEMBERS | F.GATEWAY_GUILD_MEMBERS_LIMITED,
  },
  {
    intent: I.GUILD_PRESENCES,
    name: 'GUILD_PRESENCES',
    flags: F.GATEWAY_PRESENCE | F.GATEWAY_PRESENCE_LIMITED,
  },
  {
    intent: I.MESSAGE_CONTENT,
    name: 'MESSAGE_CONTENT',
    flags: F.GATEWAY_MESSAGE_CONTENT | F.GATEWAY_MESSAGE_CONTENT_LIMITED,
  },
] as const;

export type PrivilegedIntentName = (typeof PRIVILEGED_INTENT_FLAGS)[number]['name'];

/**
 * Whether an app may use the privileged intents it asks for
 * (docs/platform-notes.md#privileged-intents): each must be enabled in the app's flags (the
 * self-serve "limited" flag or the approved one); once the app needs a review
 * (`reviewRequired`, the applications resource's `intentReview`: the users it reaches against
 * the threshold, the portal's rule) an approval is needed as well, unexpired, or a review still
 * pending (apps keep working while one is). The approvals are read first: an app holding them
 * all is allowed without counting its users.
 */
export async function privilegedIntentsAllowed(
  storage: Storage,
  input: {
    application: ApplicationRecord | null;
    intents: number;
    /** Whether the app reaches enough users to need a review. */
    reviewRequired: (applicationId: string) => Promise<boolean>;
    nowMs: number;
  },
): Promise<boolean> {
  const { application, intents } = input;
  if (application === null) return false;
  const asked = PRIVILEGED_INTENT_FLAGS.filter((p) => (intents & p.intent) !== 0);
  if (asked.some((p) => (application.flags & p.flags) === 0n)) return false;
  const approvals = await storage.gateway.listIntentApprovals(application.id);
  const approved = asked.every((p) => {
    const approval = approvals.find((a) => a.intent === p.name);
    if (approval === undefined) return false;
    return approval.status === 'pending' || (approval.expiresAt ?? 0) > input.nowMs;
  });
  return approved || !(await input.reviewRequired(application.id));
}
