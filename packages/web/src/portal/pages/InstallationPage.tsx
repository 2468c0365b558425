import { useId, useState, type SyntheticEvent } from 'react';
import { CopyField } from '../../components/CopyField.js';
import { Field, FormError } from '../../components/Field.js';
import { useApiForm } from '../../components/useApiForm.js';
import { patchApplication, useApplication } from '../context.js';
import { PageTitle, SaveBar, useDraft } from '../forms.js';
import type { IntegrationTypesConfig, PortalApplication } from '../model.js';
import { PERMISSIONS, permissionNames, permissionsValue } from '../permissions.js';
import { checkOptionalUrl, collect } from '../validation.js';

type ContextKey = '0' | '1';

interface ContextDraft {
  enabled: boolean;
  scopes: string[];
  permissions: string;
}

interface InstallDraft {
  contexts: Record<ContextKey, ContextDraft>;
  link: 'provided' | 'custom';
  customUrl: string;
}

const CONTEXTS: { key: ContextKey; label: string; about: string; scopes: string[] }[] = [
  {
    key: '0',
    label: 'Guild Install',
    about: 'Added to a server by someone who can manage it; its commands are for that server.',
    scopes: ['applications.commands', 'bot'],
  },
  {
    key: '1',
    label: 'User Install',
    about: "Added to a person's account; its commands follow them everywhere (no bot user).",
    scopes: ['applications.commands'],
  },
];

function draftOf(app: PortalApplication): InstallDraft {
  const config = app.integration_types_config ?? {};
  const context = (key: ContextKey): ContextDraft => {
    const entry = config[key];
    // A guild install without its own defaults installs with the app's install_params (set by
    // PATCH /applications/@me, say): show those, as the provided link uses them.
    const params =
      entry?.oauth2_install_params ?? (key === '0' ? app.install_params : undefined) ?? undefined;
    return {
      enabled: entry !== undefined,
      scopes: params?.scopes ?? [],
      permissions: params?.permissions ?? '0',
    };
  };
  return {
    contexts: { '0': context('0'), '1': context('1') },
    link: app.custom_install_url == null ? 'provided' : 'custom',
    customUrl: app.custom_install_url ?? '',
  };
}

/** The wire `integration_types_config` of the draft: a key per enabled context. */
function configOf(draft: InstallDraft): IntegrationTypesConfig {
  const out: IntegrationTypesConfig = {};
  for (const { key } of CONTEXTS) {
    const context = draft.contexts[key];
    if (!context.enabled) continue;
    out[key] =
      context.scopes.length === 0
        ? {}
        : {
            oauth2_install_params: {
              scopes: context.scopes,
              permissions: context.scopes.includes('bot') ? context.permissions : '0',
            },
          };
  }
  return out;
}

function customUrlOf(draft: InstallDraft): string | null {
  return draft.link === 'custom' && draft.customUrl.trim() !== '' ? draft.customUrl.trim() : null;
}

/** Installation contexts with their default scopes and permissions, and the install link. */
export function InstallationPage() {
  const { app, setApp } = useApplication();
  const { base, draft, set, reset, dirty } = useDraft(draftOf(app));
  const [saved, setSaved] = useState(false);
  const form = useApiForm();
  const id = useId();

  const setContext = (key: ContextKey, change: Partial<ContextDraft>) => {
    set('contexts', { ...draft.contexts, [key]: { ...draft.contexts[key], ...change } });
  };

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body: Record<string, unknown> = {};
    const config = configOf(draft);
    if (JSON.stringify(config) !== JSON.stringify(configOf(base))) {
      body['integration_types_config'] = config;
      // The guild context's defaults are now the page's: install_params would otherwise still
      // apply where they are left empty.
      if (app.install_params != null) body['install_params'] = null;
    }
    const url = customUrlOf(draft);
    if (url !== customUrlOf(base)) body['custom_install_url'] = url;
    void form.submit(() => patchApplication(app.id, body), {
      validate: () =>
        collect({
          integration_types_config:
            Object.keys(config).length === 0
              ? 'At least one installation context must be enabled.'
              : undefined,
          // Checked only while chosen: its field is not shown otherwise.
          custom_install_url:
            draft.link !== 'custom'
              ? undefined
              : draft.customUrl.trim() === ''
                ? 'Enter the custom install URL.'
                : checkOptionalUrl(draft.customUrl.trim()),
        }),
      onSuccess: (updated) => {
        setApp(updated);
        reset(draftOf(updated));
        setSaved(true);
      },
    });
  };

  const contextError = (key: ContextKey) =>
    Object.entries(form.errors)
      .filter(([path]) => path.startsWith(`integration_types_config.${key}`))
      .map(([, message]) => message)
      .join(' ');

  const providedLink = `${window.location.origin}/oauth2/authorize?client_id=${app.id}`;

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <PageTitle title="Installation">
        Where people can install your app, and what an install grants by default.
      </PageTitle>
      <FormError
        message={form.summary([
          'integration_types_config',
          'integration_types_config.',
          'custom_install_url',
        ])}
      />
      <section aria-labelledby={`${id}-contexts`}>
        <h2 id={`${id}-contexts`}>Installation Contexts</h2>
        {form.errors['integration_types_config'] === undefined ? null : (
          <p className="field-error" role="alert">
            {form.errors['integration_types_config']}
          </p>
        )}
        {CONTEXTS.map(({ key, label, about, scopes }) => {
          const context = draft.contexts[key];
          const error = contextError(key);
          return (
            <fieldset key={key} className="install-context">
              <legend>
                <label className="checkbox">
                  <input
                    type="checkbox"
                    checked={context.enabled}
                    onChange={(event) => {
                      setContext(key, { enabled: event.target.checked });
                    }}
                  />
                  {label}
                </label>
              </legend>
              <p className="hint">{about}</p>
              {context.enabled ? (
                <>
                  <p className="field-label">{label}: default scopes</p>
                  <div className="checkbox-row">
                    {scopes.map((scope) => (
                      <label key={scope} className="checkbox">
                        <input
                          type="checkbox"
                          checked={context.scopes.includes(scope)}
                          onChange={(event) => {
                            setContext(key, {
                              scopes: scopes.filter((s) =>
                                s === scope ? event.target.checked : context.scopes.includes(s),
                              ),
                            });
                          }}
                        />
                        {scope}
                      </label>
                    ))}
                  </div>
                  {context.scopes.includes('bot') ? (
                    <PermissionPicker
                      legend={`${label}: bot permissions`}
                      value={context.permissions}
                      onChange={(permissions) => {
                        setContext(key, { permissions });
                      }}
                    />
                  ) : null}
                </>
              ) : null}
              {error === '' ? null : (
                <p className="field-error" role="alert">
                  {error}
                </p>
              )}
            </fieldset>
          );
        })}
      </section>
      <section aria-labelledby={`${id}-link`}>
        <h2 id={`${id}-link`}>Install Link</h2>
        <div role="radiogroup" aria-labelledby={`${id}-link`} className="checkbox-row">
          <label className="checkbox">
            <input
              type="radio"
              name="install-link"
              checked={draft.link === 'provided'}
              onChange={() => {
                set('link', 'provided');
              }}
            />
            Guildhall Provided Link
          </label>
          <label className="checkbox">
            <input
              type="radio"
              name="install-link"
              checked={draft.link === 'custom'}
              onChange={() => {
                set('link', 'custom');
              }}
            />
            Custom URL
          </label>
        </div>
        {draft.link === 'provided' ? (
          <CopyField
            label="Install link"
            value={providedLink}
            hint="Opens the install page with the defaults above."
          />
        ) : (
          <Field
            label="Custom Install URL"
            type="url"
            value={draft.customUrl}
            error={form.errors['custom_install_url']}
            hint="Where the app's Add App button sends people (http or https)."
            onChange={(event) => {
              set('customUrl', event.target.value);
            }}
          />
        )}
      </section>
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

/** Permission checkboxes for a decimal permission string, folded away by default. */
export function PermissionPicker({
  legend,
  value,
  onChange,
}: {
  legend: string;
  value: string;
  onChange: (value: string) => void;
}) {
  const names = permissionNames(value);
  return (
    <details className="permission-picker">
      <summary>
        {legend} ({value})
      </summary>
      <fieldset>
        <legend className="visually-hidden">{legend}</legend>
        <div className="checkbox-grid">
          {PERMISSIONS.map((permission) => (
            <label key={permission.name} className="checkbox">
              <input
                type="checkbox"
                checked={names.has(permission.name)}
                onChange={(event) => {
                  const next = new Set(names);
                  if (event.target.checked) next.add(permission.name);
                  else next.delete(permission.name);
                  onChange(permissionsValue(next));
                }}
              />
              {permission.label}
            </label>
          ))}
        </div>
      </fieldset>
    </details>
  );
}
