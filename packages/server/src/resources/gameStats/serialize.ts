/** @module Game stats records to wire (no discord-api-types shapes exist for these). */
import type {
  ApplicationIdentityProfileRecord,
  UserApplicationProfileRecord,
} from '../../storage/index.js';

/** The profile: `{username, metadata, data}` (PATCH 201 and GET). */
export function serializeProfile(profile: ApplicationIdentityProfileRecord) {
  return { username: profile.username, metadata: profile.metadata, data: profile.data };
}

/** An application identity of a user; `data` is the stats of a NONE identity, else null. */
export function serializeIdentity(
  entry: UserApplicationProfileRecord,
  profile: ApplicationIdentityProfileRecord | null,
) {
  return {
    application_id: entry.applicationId,
    user_id: entry.userId,
    provider_type: entry.providerType,
    provider_id: entry.providerId,
    provider_issued_user_id: entry.providerIssuedUserId,
    username: entry.username,
    metadata: entry.metadata,
    data: profile === null ? null : profile.data,
  };
}
export type IdentityWire = ReturnType<typeof serializeIdentity>;

/** The SDK's UserApplicationProfile, in the wire's snake case. */
export function serializeUserApplicationProfile(entry: UserApplicationProfileRecord) {
  return {
    application_id: entry.applicationId,
    user_id: entry.userId,
    avatar_hash: entry.avatarHash,
    metadata: entry.metadata,
    provider_id: entry.providerId,
    provider_issued_user_id: entry.providerIssuedUserId,
    provider_type: entry.providerType,
    username: entry.username,
  };
}
