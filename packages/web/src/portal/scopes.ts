import { OAUTH2_SCOPES } from '@guildhall/protocol';

/** The OAuth2 scopes the platform knows, in its order (the one table in @guildhall/protocol). */
export const SCOPE_NAMES: readonly string[] = Object.keys(OAUTH2_SCOPES);

/** Scopes an install (no redirect) may ask for: anything else needs a redirect URI. */
export const INSTALL_SCOPES: readonly string[] = ['bot', 'applications.commands'];
