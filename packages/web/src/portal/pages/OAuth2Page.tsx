import { useState, type SyntheticEvent } from 'react';
import { api, errorMessage } from '../../lib/api.js';
import { ConfirmDialog } from '../../components/Dialog.js';
import { CopyField } from '../../components/CopyField.js';
import { FormError } from '../../components/Field.js';
import { Toggle } from '../../components/Toggle.js';
import { useApiForm } from '../../components/useApiForm.js';
import { patchApplication, useApplication } from '../context.js';
import { PageTitle, SaveBar, useDraft } from '../forms.js';
import { useToggleSave } from '../useToggleSave.js';
import { UrlGenerator } from '../UrlGenerator.js';

/** Client id and secret, redirect URIs, client settings and the URL generator. */
export function OAuth2Page() {
  const { app, busy, errors, save } = useToggleSave();
  return (
    <div className="settings-form">
      <PageTitle title="OAuth2">
        Let people sign in with their account, or add your app to their server.
      </PageTitle>
      <section aria-labelledby="oauth-client">
        <h2 id="oauth-client">Client information</h2>
        <CopyField label="Client ID" value={app.id} />
        <SecretSection applicationId={app.id} />
      </section>
      <RedirectsForm />
      <section aria-labelledby="oauth-settings">
        <h2 id="oauth-settings">Client settings</h2>
        <Toggle
          label="Public Client"
          description="For apps that cannot keep a secret (mobile, desktop): no client secret, PKCE required."
          checked={app.public_client ?? false}
          onChange={(on) => {
            if (busy === null) void save('public_client', { public_client: on });
          }}
        />
        {errors['public_client'] === undefined ? null : (
          <p className="field-error" role="alert">
            {errors['public_client']}
          </p>
        )}
        <Toggle
          label="Device Authorization Flow"
          description="Sign in on a device without a browser with a code entered elsewhere."
          checked={app.device_flow_enabled ?? false}
          onChange={(on) => {
            if (busy === null) void save('device_flow_enabled', { device_flow_enabled: on });
          }}
        />
        {errors['device_flow_enabled'] === undefined ? null : (
          <p className="field-error" role="alert">
            {errors['device_flow_enabled']}
          </p>
        )}
      </section>
      <UrlGenerator
        clientId={app.id}
        redirectUris={app.redirect_uris}
        origin={window.location.origin}
      />
    </div>
  );
}

/** "Reset Secret" behind a confirmation; the new secret is shown once. */
function SecretSection({ applicationId }: { applicationId: string }) {
  const [confirming, setConfirming] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [secret, setSecret] = useState<string | null>(null);

  const reset = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await api<{ secret: string }>('POST', `/applications/${applicationId}/reset`);
      setSecret(answer.secret);
      setConfirming(false);
    } catch (failure) {
      setError(errorMessage(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      {secret === null ? (
        <p className="hint">
          The client secret is shown once, when it is made. Resetting it makes a new one: the old
          one stops working at once.
        </p>
      ) : (
        <>
          <p className="warning" role="status">
            Copy the client secret now: it will not be shown again.
          </p>
          <CopyField label="Client Secret" value={secret} secret />
        </>
      )}
      <button
        type="button"
        onClick={() => {
          setError(null);
          setConfirming(true);
        }}
      >
        Reset Secret
      </button>
      {confirming ? (
        <ConfirmDialog
          title="Reset the app's secret?"
          message="Anything using the current secret will stop working until you give it the new one."
          confirmLabel="Yes, do it!"
          busy={busy}
          error={error}
          onConfirm={() => void reset()}
          onClose={() => {
            setConfirming(false);
          }}
        />
      ) : null}
    </div>
  );
}

const MAX_REDIRECTS = 10;

/** The redirect URI list: add, edit, remove, then Save Changes. */
function RedirectsForm() {
  const { app, setApp } = useApplication();
  const { base, draft, set, reset, dirty } = useDraft({ redirect_uris: app.redirect_uris });
  const [saved, setSaved] = useState(false);
  const form = useApiForm();
  const uris = draft.redirect_uris;

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const cleaned = uris.map((uri) => uri.trim());
    void form.submit(() => patchApplication(app.id, { redirect_uris: cleaned }), {
      validate: () => {
        const out: Record<string, string> = {};
        cleaned.forEach((uri, index) => {
          if (uri === '') out[`redirect_uris.${String(index)}`] = 'This field is required.';
          else if (uri.length > 2048) {
            out[`redirect_uris.${String(index)}`] = 'Must be 2048 or fewer in length.';
          } else if (!URL.canParse(uri) || uri.includes('#')) {
            out[`redirect_uris.${String(index)}`] = 'Not a valid redirect URI.';
          }
        });
        return out;
      },
      onSuccess: (updated) => {
        setApp(updated);
        reset({ redirect_uris: updated.redirect_uris });
        setSaved(true);
      },
    });
  };

  return (
    <form onSubmit={submit} noValidate>
      <fieldset className="redirects">
        <legend>
          <h2>Redirects</h2>
        </legend>
        <p className="hint">
          Where the authorization sends people back with their code. Absolute URIs without a
          fragment; up to {MAX_REDIRECTS}.
        </p>
        <FormError message={form.summary(['redirect_uris', 'redirect_uris.'])} />
        {form.errors['redirect_uris'] === undefined ? null : (
          <p className="field-error" role="alert">
            {form.errors['redirect_uris']}
          </p>
        )}
        <ol className="redirect-list">
          {uris.map((uri, index) => {
            const error = form.errors[`redirect_uris.${String(index)}`];
            const id = `redirect-${String(index)}`;
            return (
              <li key={index} className="redirect-row">
                <label htmlFor={id} className="visually-hidden">
                  Redirect URI {index + 1}
                </label>
                <input
                  id={id}
                  type="url"
                  value={uri}
                  placeholder="https://example.com/callback"
                  aria-invalid={error === undefined ? undefined : true}
                  aria-describedby={error === undefined ? undefined : `${id}-error`}
                  onChange={(event) => {
                    set(
                      'redirect_uris',
                      uris.map((value, i) => (i === index ? event.target.value : value)),
                    );
                  }}
                />
                <button
                  type="button"
                  aria-label={`Remove URI ${String(index + 1)}`}
                  onClick={() => {
                    set(
                      'redirect_uris',
                      uris.filter((_, i) => i !== index),
                    );
                  }}
                >
                  Remove
                </button>
                {error === undefined ? null : (
                  <p className="field-error" id={`${id}-error`} role="alert">
                    {error}
                  </p>
                )}
              </li>
            );
          })}
        </ol>
        <button
          type="button"
          disabled={uris.length >= MAX_REDIRECTS}
          onClick={() => {
            set('redirect_uris', [...uris, '']);
          }}
        >
          Add Redirect
        </button>
        <SaveBar
          dirty={dirty}
          busy={form.busy}
          saved={saved}
          onReset={() => {
            reset(base);
            form.reset();
          }}
        />
      </fieldset>
    </form>
  );
}
