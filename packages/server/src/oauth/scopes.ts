import { OAUTH2_SCOPES } from '@guildhall/protocol';
import type { ApplicationRecord } from '../storage/index.js';
import { MAX_ECHOED_LENGTH, OAuthError } from './errors.js';

/** Every scope the platform knows, with the words the consent page shows (@guildhall/protocol). */
export const SCOPES: Readonly<Record<string, string>> = OAUTH2_SCOPES;

/**
 * What the Social SDK meta-scopes stand for. `sdk.social_layer_presence` covers presence, friends,
 * rich presence and account linking; `sdk.social_layer` adds lobbies, voice, DMs and linked
 * channels on top. Both keep themselves in the granted set. Documented in docs/oauth.md.
 */
export const SCOPE_EXPANSIONS: Readonly<Record<string, readonly string[]>> = {
  'sdk.social_layer_presence': [
    'identify',
    'openid',
    'relationships.read',
    'relationships.write',
    'presences.read',
    'presences.write',
    'activities.read',
    'activities.write',
    'application_identities.write',
    'account.global_name.update',
  ],
  'sdk.social_layer': [
    'sdk.social_layer_presence',
    'identify',
    'openid',
    'relationships.read',
    'relationships.write',
    'presences.read',
    'presences.write',
    'activities.read',
    'activities.write',
    'application_identities.write',
    'account.global_name.update',
    'dm_channels.read',
    'dm_channels.messages.read',
    'dm_channels.messages.write',
    'lobbies.write',
    'gdm.join',
    'voice',
  ],
};

/** Scopes only an approved application may request. */
export const RESTRICTED_SCOPES: ReadonlySet<string> = new Set(['identify.premium']);

/**
 * Why the application may not ask for one of `requested`, or null when it may:
 * `identify.premium` needs an operator's approval; `relationships.read` asked for by name (the
 * Activities case) needs the Social SDK terms accepted in the app's Social SDK settings, or the
 * operator's Social SDK approval (spec, OAuth2 scopes). The Social SDK meta-scopes that expand
 * to it are the SDK's own request and are not held to this.
 */
export function scopeRefusal(
  application: ApplicationRecord,
  requested: readonly string[],
): OAuthError | null {
  const restricted = requested.find((scope) => RESTRICTED_SCOPES.has(scope));
  if (restricted !== undefined && !application.identifyPremiumApproved) {
    return new OAuthError('invalid_scope', `${restricted} needs the platform's approval.`);
  }
  if (
    requested.includes('relationships.read') &&
    !application.socialSdkTermsAccepted &&
    !application.socialApproved
  ) {
    return new OAuthError(
      'invalid_scope',
      'relationships.read needs the Social SDK terms accepted in the application settings.',
    );
  }
  return null;
}

/** Splits a space-separated scope string; an unknown scope or an empty list is invalid_scope. */
export function parseScopes(raw: string | undefined): string[] {
  const scopes = [...new Set((raw ?? '').split(/[ +]/).filter((s) => s.length > 0))];
  if (scopes.length === 0) throw new OAuthError('invalid_scope', 'No scope was requested.');
  const unknown = scopes.find((scope) => SCOPES[scope] === undefined);
  if (unknown !== undefined) {
    throw new OAuthError('invalid_scope', `Unknown scope: ${unknown.slice(0, MAX_ECHOED_LENGTH)}.`);
  }
  return scopes;
}

/** The scopes with the Social SDK meta-scopes expanded, sorted, without duplicates. */
export function expandScopes(scopes: readonly string[]): string[] {
  const out = new Set<string>();
  for (const scope of scopes) {
    out.add(scope);
    for (const implied of SCOPE_EXPANSIONS[scope] ?? []) out.add(implied);
  }
  return [...out].sort();
}
