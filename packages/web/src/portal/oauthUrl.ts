import { INSTALL_SCOPES } from './scopes.js';

export interface AuthorizeUrlInput {
  origin: string;
  clientId: string;
  scopes: readonly string[];
  /** Decimal bot permissions; sent only with the `bot` scope. */
  permissions: string;
  /** 0 guild install, 1 user install. */
  integrationType: 0 | 1;
  /** A redirect URI of the app, or null for an install link. */
  redirectUri: string | null;
}

/** Whether the scopes need a redirect URI (anything but an install's `bot`/`applications.commands`). */
export function needsRedirect(scopes: readonly string[]): boolean {
  return scopes.some((scope) => !INSTALL_SCOPES.includes(scope));
}

/**
 * The authorization URL the platform's generator makes: the page `/oauth2/authorize` with
 * client_id, permissions (with `bot`), the response type `code` and the redirect URI when one is
 * chosen, the integration type and the scopes, space-separated.
 */
export function authorizeUrl(input: AuthorizeUrlInput): string {
  const query = new URLSearchParams({ client_id: input.clientId });
  if (input.scopes.includes('bot')) query.set('permissions', input.permissions);
  if (input.redirectUri !== null) {
    query.set('response_type', 'code');
    query.set('redirect_uri', input.redirectUri);
  }
  query.set('integration_type', String(input.integrationType));
  query.set('scope', input.scopes.join(' '));
  return `${input.origin}/oauth2/authorize?${query.toString()}`;
}
