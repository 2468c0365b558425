// Activity flags: what a rich presence activity (gateway op 3, the presence others see) allows.

/**
 * The activity object's `flags`. They describe what the activity holds: a join secret is JOIN, a
 * spectate secret SPECTATE, `instance: true` INSTANCE, a public party (the Social SDK's
 * `ActivityPartyPrivacy.Public`: joinable by friends and by mutual voice participants) both
 * PARTY_PRIVACY bits, and an embedded app's activity (the client hosting its frame) EMBEDDED.
 * JOIN_REQUEST is no longer set (any party can be asked to join); SYNC and PLAY are a music
 * service's.
 *
 * @see docs/platform-notes.md#activity-flags
 */
export const ActivityFlags = {
  INSTANCE: 1 << 0,
  JOIN: 1 << 1,
  SPECTATE: 1 << 2,
  JOIN_REQUEST: 1 << 3,
  SYNC: 1 << 4,
  PLAY: 1 << 5,
  PARTY_PRIVACY_FRIENDS: 1 << 6,
  PARTY_PRIVACY_VOICE_CHANNEL: 1 << 7,
  EMBEDDED: 1 << 8,
} as const;

/** The name of an activity flag: a key of {@link ActivityFlags}. */
export type ActivityFlagName = keyof typeof ActivityFlags;

/** `party.privacy` of a public party (the Social SDK's ActivityPartyPrivacy.Public). */
const PUBLIC_PARTY = 1;

/** The flags that follow from the activity's own members: set when they hold, cleared if not. */
const HELD_FLAGS =
  ActivityFlags.INSTANCE |
  ActivityFlags.JOIN |
  ActivityFlags.SPECTATE |
  ActivityFlags.PARTY_PRIVACY_FRIENDS |
  ActivityFlags.PARTY_PRIVACY_VOICE_CHANNEL;

/** Bits 0 to 30: what fits in the positive range of a 32-bit signed integer. */
const FLAG_BITS = 0x7fffffff;

/** The members of an activity its flags follow from. */
export interface FlaggedActivity {
  instance?: boolean | null | undefined;
  party?: { readonly [member: string]: unknown; privacy?: number | null | undefined } | null;
  secrets?: {
    readonly [member: string]: unknown;
    join?: string | null | undefined;
    spectate?: string | null | undefined;
  } | null;
  flags?: number | null | undefined;
}

function present(text: unknown): boolean {
  return typeof text === 'string' && text !== '';
}

/**
 * The flags of an activity as the platform shows it: INSTANCE, JOIN, SPECTATE and the two
 * PARTY_PRIVACY bits from what the activity holds (a client cannot claim them without it), the
 * other bits the client sent (EMBEDDED from the client hosting an embedded app; bits 0 to 30)
 * kept.
 *
 * @param activity - The activity, its secrets included (they decide JOIN and SPECTATE).
 * @returns The flags, 0 for none.
 * @example
 * ```ts
 * activityFlags({ secrets: { join: 's' }, party: { privacy: 1 } });
 * // ActivityFlags.JOIN | PARTY_PRIVACY_FRIENDS | PARTY_PRIVACY_VOICE_CHANNEL = 194
 * ```
 */
export function activityFlags(activity: FlaggedActivity): number {
  const given = activity.flags;
  let flags =
    typeof given === 'number' && Number.isSafeInteger(given) ? given & FLAG_BITS & ~HELD_FLAGS : 0;
  if (activity.instance === true) flags |= ActivityFlags.INSTANCE;
  if (present(activity.secrets?.join)) flags |= ActivityFlags.JOIN;
  if (present(activity.secrets?.spectate)) flags |= ActivityFlags.SPECTATE;
  if (activity.party?.privacy === PUBLIC_PARTY) {
    flags |= ActivityFlags.PARTY_PRIVACY_FRIENDS | ActivityFlags.PARTY_PRIVACY_VOICE_CHANNEL;
  }
  return flags;
}

/**
 * The activity with its `flags` set by {@link activityFlags}: present when there is one, left
 * out (with a client's `flags: 0`) when there is none, as the platform sends it.
 */
export function withActivityFlags<T extends FlaggedActivity>(activity: T): T {
  const flags = activityFlags(activity);
  const rest = { ...activity };
  delete rest.flags;
  return flags === 0 ? rest : { ...rest, flags };
}
