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
 * self-serve "limited" flag or the approved one); at and above the review threshold an approval
 * is needed as well, unexpired, or a review still pending (apps keep working while one is).
 */
export async function privilegedIntentsAllowed(
  storage: Storage,
  input: {
    application: ApplicationRecord | null;
    intents: number;
    /** Guilds the app's bot is in. */
    reach: number;
    threshold: number;
    nowMs: number;
  },
): Promise<boolean> {
  const { application, intents } = input;
  if (application === null) return false;
  const asked = PRIVILEGED_INTENT_FLAGS.filter((p) => (intents & p.intent) !== 0);
  if (asked.some((p) => (application.flags & p.flags) === 0n)) return false;
  if (input.reach < input.threshold) return true;
  const approvals = await storage.gateway.listIntentApprovals(application.id);
  return asked.every((p) => {
    const approval = approvals.find((a) => a.intent === p.name);
    if (approval === undefined) return false;
    return approval.status === 'pending' || (approval.expiresAt ?? 0) > input.nowMs;
  });
}
