/**
 * @module gateway/social: what the gateway needs of a user's social graph for SDK sessions
 * (docs/gateway.md#sdk-sessions): READY's relationships, private channels and lobbies, and the
 * friends a PRESENCE_UPDATE goes to. Each part is a provider the composition root (app.ts) wires
 * from the storage that holds it; a part not wired shows nothing (an empty list).
 */

/** A wire object as READY carries it (serialized by the resource that owns it). */
export type WireObject = object;

export interface SocialProviders {
  /**
   * The user's relationships as RELATIONSHIP objects (`{id, type, user, nickname, since, …}`):
   * platform-wide ones and the application's game relationships.
   */
  relationships: (input: {
    userId: string;
    applicationId: string;
  }) => Promise<readonly WireObject[]>;
  /**
   * The ids of the user's friends in every scope: their sessions receive the user's presence,
   * and READY shows theirs.
   */
  friendIds: (userId: string) => Promise<readonly string[]>;
  /** The DM channels the user is in, as channel objects. */
  privateChannels: (input: {
    userId: string;
    applicationId: string;
  }) => Promise<readonly WireObject[]>;
  /** The lobbies of the application the user is a member of, as lobby objects. */
  lobbies: (input: { userId: string; applicationId: string }) => Promise<readonly WireObject[]>;
}

const none = () => Promise.resolve([]);

/** No social graph: every list empty. */
export const NO_SOCIAL: SocialProviders = {
  relationships: none,
  friendIds: none,
  privateChannels: none,
  lobbies: none,
};

/** The providers given, the missing ones empty. */
export function socialProviders(given: Partial<SocialProviders> = {}): SocialProviders {
  return { ...NO_SOCIAL, ...given };
}
