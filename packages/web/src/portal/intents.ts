import { ApplicationFlags } from 'discord-api-types/v10';

/** The self-serve limit: at or above this many users, a privileged intent needs a review. */
export const INTENT_REVIEW_THRESHOLD = 10_000;

export interface PrivilegedIntent {
  label: 'Presence Intent' | 'Server Members Intent' | 'Message Content Intent';
  /** The flag the platform sets once a review approves the intent. */
  approved: number;
  /** The flag an app below the threshold sets on itself. */
  limited: number;
  description: string;
}

export const PRIVILEGED_INTENTS: readonly PrivilegedIntent[] = [
  {
    label: 'Presence Intent',
    approved: ApplicationFlags.GatewayPresence,
    limited: ApplicationFlags.GatewayPresenceLimited,
    description: 'Receive presence updates (status and activities) of the members of its servers.',
  },
  {
    label: 'Server Members Intent',
    approved: ApplicationFlags.GatewayGuildMembers,
    limited: ApplicationFlags.GatewayGuildMembersLimited,
    description: 'Receive member events and request the full member list of its servers.',
  },
  {
    label: 'Message Content Intent',
    approved: ApplicationFlags.GatewayMessageContent,
    limited: ApplicationFlags.GatewayMessageContentLimited,
    description: 'Read the content, embeds, attachments and components of messages.',
  },
];

/** The flags PATCH accepts from an app: only the three limited bits (schemas.ts on the server). */
export const SELF_SERVE_FLAGS = PRIVILEGED_INTENTS.reduce((all, intent) => all | intent.limited, 0);

/** Whether the app receives the intent (approved by review, or self-served). */
export function intentEnabled(flags: number, intent: PrivilegedIntent): boolean {
  return (flags & (intent.approved | intent.limited)) !== 0;
}

/**
 * The `flags` to PATCH for turning one intent's limited bit on or off: the app's current
 * self-serve bits with that one changed (the platform's own bits are never sent: PATCH refuses
 * them).
 */
export function flagsWithIntent(flags: number, intent: PrivilegedIntent, on: boolean): number {
  const own = flags & SELF_SERVE_FLAGS;
  return on ? own | intent.limited : own & ~intent.limited;
}

/**
 * Why the intent's switch is locked, or undefined when the developer may flip it: an approved
 * intent is the platform's, and at or above the threshold an intent not already on needs review.
 */
export function intentLockReason(
  flags: number,
  intent: PrivilegedIntent,
  userCount: number | undefined,
): string | undefined {
  if ((flags & intent.approved) !== 0) return 'Approved after review: the platform manages it.';
  if ((flags & intent.limited) !== 0) return undefined;
  if (userCount !== undefined && userCount >= INTENT_REVIEW_THRESHOLD) {
    return (
      `Your app reaches ${userCount.toLocaleString('en-US')} users: at ` +
      `${INTENT_REVIEW_THRESHOLD.toLocaleString('en-US')} or more, this intent needs a review ` +
      'before it can be turned on.'
    );
  }
  return undefined;
}
