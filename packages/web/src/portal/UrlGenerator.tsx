import { useId, useState } from 'react';
import { CopyField } from '../components/CopyField.js';
import { authorizeUrl, needsRedirect } from './oauthUrl.js';
import { PERMISSIONS, permissionsValue } from './permissions.js';
import { SCOPE_NAMES } from './scopes.js';

/**
 * The OAuth2 URL generator: scopes, bot permissions (with `bot`), the installation context and a
 * redirect URI (then `response_type=code`) make the authorization URL to share.
 */
export function UrlGenerator({
  clientId,
  redirectUris,
  origin,
}: {
  clientId: string;
  redirectUris: readonly string[];
  origin: string;
}) {
  const id = useId();
  const [scopes, setScopes] = useState<string[]>([]);
  const [permissions, setPermissions] = useState<Set<string>>(new Set());
  const [integrationType, setIntegrationType] = useState<0 | 1>(0);
  const [redirect, setRedirect] = useState('');

  const redirectUri = redirectUris.includes(redirect) ? redirect : null;
  const missingRedirect = needsRedirect(scopes) && redirectUri === null;
  const withBot = scopes.includes('bot');
  // A bot joins a server: the server refuses `bot` with a user install (invalid_request).
  const type = withBot ? 0 : integrationType;
  const url =
    scopes.length === 0
      ? ''
      : authorizeUrl({
          origin,
          clientId,
          scopes,
          permissions: permissionsValue(permissions),
          integrationType: type,
          redirectUri,
        });

  const toggleScope = (scope: string, on: boolean) => {
    // Kept in the server's order, so the same choice always makes the same URL.
    setScopes((current) => SCOPE_NAMES.filter((s) => (s === scope ? on : current.includes(s))));
  };

  return (
    <section aria-labelledby={`${id}-title`} className="url-generator">
      <h2 id={`${id}-title`}>OAuth2 URL Generator</h2>
      <fieldset>
        <legend>Scopes</legend>
        <div className="checkbox-grid">
          {SCOPE_NAMES.map((scope) => (
            <label key={scope} className="checkbox">
              <input
                type="checkbox"
                checked={scopes.includes(scope)}
                onChange={(event) => {
                  toggleScope(scope, event.target.checked);
                }}
              />
              {scope}
            </label>
          ))}
        </div>
      </fieldset>
      {withBot ? (
        <fieldset>
          <legend>Bot Permissions</legend>
          <div className="checkbox-grid">
            {PERMISSIONS.map((permission) => (
              <label key={permission.name} className="checkbox">
                <input
                  type="checkbox"
                  checked={permissions.has(permission.name)}
                  onChange={(event) => {
                    const next = new Set(permissions);
                    if (event.target.checked) next.add(permission.name);
                    else next.delete(permission.name);
                    setPermissions(next);
                  }}
                />
                {permission.label}
              </label>
            ))}
          </div>
          <p className="hint">Permissions integer: {permissionsValue(permissions)}</p>
        </fieldset>
      ) : null}
      <div className="two-columns">
        <div className="field">
          <label htmlFor={`${id}-type`}>Integration Type</label>
          <select
            id={`${id}-type`}
            value={type}
            aria-describedby={withBot ? `${id}-type-hint` : undefined}
            onChange={(event) => {
              setIntegrationType(event.target.value === '1' ? 1 : 0);
            }}
          >
            <option value={0}>Guild Install</option>
            <option value={1} disabled={withBot}>
              User Install
            </option>
          </select>
          {withBot ? (
            <p className="hint" id={`${id}-type-hint`}>
              The bot scope adds a bot to a server: Guild Install only.
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor={`${id}-redirect`}>Select Redirect URL</label>
          <select
            id={`${id}-redirect`}
            value={redirectUri ?? ''}
            aria-describedby={missingRedirect ? `${id}-redirect-hint` : undefined}
            onChange={(event) => {
              setRedirect(event.target.value);
            }}
          >
            <option value="">None</option>
            {redirectUris.map((uri) => (
              <option key={uri} value={uri}>
                {uri}
              </option>
            ))}
          </select>
          {missingRedirect ? (
            <p className="hint" id={`${id}-redirect-hint`}>
              {redirectUris.length === 0
                ? 'These scopes need a redirect URI: add one under Redirects and save.'
                : 'These scopes need a redirect URI: pick one.'}
            </p>
          ) : null}
        </div>
      </div>
      <CopyField
        label="Generated URL"
        value={url}
        hint={scopes.length === 0 ? 'Pick at least one scope.' : undefined}
      />
    </section>
  );
}
