import { useEffect, useState, type SyntheticEvent } from 'react';
import { api, errorMessage } from '../../lib/api.js';
import { Field, FormError } from '../../components/Field.js';
import { Toggle } from '../../components/Toggle.js';
import { useApiForm } from '../../components/useApiForm.js';
import { patchApplication, useApplication } from '../context.js';
import { PageTitle, SaveBar, useDraft } from '../forms.js';
import { useToggleSave } from '../useToggleSave.js';
import { checkOptionalUrl, collect } from '../validation.js';

/** Social SDK settings: the terms, the connection entrypoint and the OpenID provider. */
export function SocialSdkPage() {
  const { app, busy, errors, save } = useToggleSave();
  return (
    <div className="settings-form">
      <PageTitle title="Social SDK">
        Friends, presence, lobbies and provisional accounts for your game.
      </PageTitle>
      <section aria-labelledby="sdk-terms">
        <h2 id="sdk-terms">Terms</h2>
        <Toggle
          label="I accept the Social SDK terms"
          description="Accepting lets your app ask for relationships.read (the player's friends) without an approval."
          checked={app.social_sdk_terms_accepted ?? false}
          onChange={(on) => {
            if (busy === null) void save('terms', { social_sdk_terms_accepted: on });
          }}
        />
        {errors['terms'] === undefined ? null : (
          <p className="field-error" role="alert">
            {errors['terms']}
          </p>
        )}
      </section>
      <EntrypointForm />
      <OidcProviderForm applicationId={app.id} />
    </div>
  );
}

function EntrypointForm() {
  const { app, setApp } = useApplication();
  const { base, draft, set, reset, dirty } = useDraft({
    url: app.connection_entrypoint_url ?? '',
  });
  const [saved, setSaved] = useState(false);
  const form = useApiForm();

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const url = draft.url.trim() || null;
    void form.submit(() => patchApplication(app.id, { connection_entrypoint_url: url }), {
      validate: () => collect({ connection_entrypoint_url: checkOptionalUrl(draft.url.trim()) }),
      onSuccess: (updated) => {
        setApp(updated);
        reset({ url: updated.connection_entrypoint_url ?? '' });
        setSaved(true);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="sdk-entrypoint">
      <h2 id="sdk-entrypoint">Connection Entrypoint</h2>
      <FormError message={form.summary(['connection_entrypoint_url'])} />
      <Field
        label="Connection Entrypoint URL"
        type="url"
        value={draft.url}
        error={form.errors['connection_entrypoint_url']}
        hint="Where a player linking their account to your game is sent (http or https)."
        onChange={(event) => {
          set('url', event.target.value);
        }}
      />
      <SaveBar
        dirty={dirty}
        busy={form.busy}
        saved={saved}
        onReset={() => {
          reset(base);
          form.reset();
        }}
      />
    </form>
  );
}

interface OidcProvider {
  issuer: string;
  client_id: string;
  validation: 'strict' | 'legacy';
  updated_at: string;
}

/** The application's OpenID provider for provisional accounts (docs/provisional-accounts.md). */
function OidcProviderForm({ applicationId }: { applicationId: string }) {
  const [provider, setProvider] = useState<OidcProvider | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [issuer, setIssuer] = useState('');
  const [clientId, setClientId] = useState('');
  const form = useApiForm();

  useEffect(() => {
    const controller = new AbortController();
    // The list answers [] when none is saved: the page makes no request that fails.
    api<(OidcProvider & { type: string })[]>(
      'GET',
      `/applications/${applicationId}/identity-providers`,
      { signal: controller.signal },
    ).then(
      (providers) => {
        const found = providers.find((p) => p.type === 'oidc');
        if (found === undefined) return;
        setProvider(found);
        setIssuer(found.issuer);
        setClientId(found.client_id);
      },
      (error: unknown) => {
        if (controller.signal.aborted) return;
        setLoadError(errorMessage(error));
      },
    );
    return () => {
      controller.abort();
    };
  }, [applicationId]);

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit(
      () =>
        api<OidcProvider>('PUT', `/applications/${applicationId}/identity-providers/oidc`, {
          body: { issuer: issuer.trim(), client_id: clientId.trim() },
        }),
      {
        validate: () =>
          collect({
            issuer: issuer.trim() === '' ? 'This field is required.' : undefined,
            client_id:
              clientId.trim() === ''
                ? 'This field is required.'
                : clientId.length > 255
                  ? 'Must be 255 or fewer in length.'
                  : undefined,
          }),
        onSuccess: setProvider,
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate aria-labelledby="sdk-oidc">
      <h2 id="sdk-oidc">OpenID Connect Provider</h2>
      <p className="hint">
        Players signing in with your own accounts get a provisional account. Saving fetches the
        issuer's discovery document and keys: a provider that fails the checks is not kept.
      </p>
      <FormError message={loadError ?? form.summary(['issuer', 'client_id'])} />
      {provider === null ? null : (
        <p role="status">
          Saved: {provider.issuer} ({provider.validation} validation, updated{' '}
          {new Date(provider.updated_at).toLocaleString()})
        </p>
      )}
      <Field
        label="Issuer"
        type="url"
        value={issuer}
        error={form.errors['issuer']}
        hint="https://, a host name (no IP), no query or fragment."
        onChange={(event) => {
          setIssuer(event.target.value);
        }}
      />
      <Field
        label="OIDC Client ID"
        value={clientId}
        maxLength={255}
        error={form.errors['client_id']}
        onChange={(event) => {
          setClientId(event.target.value);
        }}
      />
      <button type="submit" className="primary" disabled={form.busy}>
        Save Provider
      </button>
    </form>
  );
}
