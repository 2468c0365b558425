import { useEffect, useState, type SyntheticEvent } from 'react';
import { api, errorMessage } from '../../lib/api.js';
import { CopyField } from '../../components/CopyField.js';
import { FormError } from '../../components/Field.js';
import { Toggle } from '../../components/Toggle.js';
import { useApiForm, type FieldErrors } from '../../components/useApiForm.js';
import { useApplication } from '../context.js';
import { PageTitle, SaveBar, useDraft } from '../forms.js';
import './activities.css';

interface UrlMapping {
  prefix: string;
  target: string;
}

/** GET/PATCH /applications/{id}/embedded-activity-config (docs/activities.md). */
export interface ActivityConfig {
  application_id: string;
  url_mappings: UrlMapping[];
  supported_platforms: string[];
  default_orientation_lock_state: number;
  tablet_default_orientation_lock_state: number;
  requires_age_gate: boolean;
  activity_origin: string;
}

/** The server's limit (activities/config.ts MAX_URL_MAPPINGS). */
const MAX_MAPPINGS = 25;
const PLATFORMS = [
  { value: 'web', label: 'Web' },
  { value: 'ios', label: 'iOS' },
  { value: 'android', label: 'Android' },
] as const;
const ORIENTATIONS = [
  { value: 1, label: 'Unlocked' },
  { value: 2, label: 'Portrait' },
  { value: 3, label: 'Landscape' },
] as const;

/** The server's target rule, lightly: host[:port][/path], optionally after http(s)://. */
const TARGET =
  /^(?:https?:\/\/)?(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?(?:\/[^\s?#]*)?$/i;

/** Light checks before a request (the API's answer stays authoritative). */
function checkMappings(mappings: readonly UrlMapping[]): FieldErrors {
  const out: FieldErrors = {};
  const seen = new Set<string>();
  mappings.forEach((mapping, index) => {
    const at = `url_mappings.${String(index)}`;
    const prefix = mapping.prefix.replace(/\/+$/, '') || '/';
    if (!mapping.prefix.startsWith('/')) out[`${at}.prefix`] = "A prefix starts with '/'.";
    else if (seen.has(prefix)) out[`${at}.prefix`] = 'Prefixes must be unique.';
    seen.add(prefix);
    if (mapping.target === '') out[`${at}.target`] = 'This field is required.';
    else if (!TARGET.test(mapping.target)) {
      out[`${at}.target`] = 'A target is host[:port][/path], optionally after http:// or https://.';
    }
  });
  return out;
}

/** Activities: the URL mappings the proxy host serves, platforms, orientation and age gate. */
export function ActivitiesPage() {
  const { app } = useApplication();
  const [config, setConfig] = useState<ActivityConfig | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api<ActivityConfig>('GET', `/applications/${app.id}/embedded-activity-config`, {
      signal: controller.signal,
    }).then(setConfig, (error: unknown) => {
      if (!controller.signal.aborted) setLoadError(errorMessage(error));
    });
    return () => {
      controller.abort();
    };
  }, [app.id]);

  return (
    <div className="settings-form">
      <PageTitle title="Activities">
        Run your app inside the client: its pages are served from its own origin through the proxy
        host, which reaches only the targets you map here.
      </PageTitle>
      <FormError message={loadError} />
      {config === null ? (
        loadError === null ? (
          <p role="status">Loading the activity settings…</p>
        ) : null
      ) : (
        <ActivityForm saved={config} onSaved={setConfig} />
      )}
    </div>
  );
}

function ActivityForm({
  saved,
  onSaved,
}: {
  saved: ActivityConfig;
  onSaved: (config: ActivityConfig) => void;
}) {
  const { app, setApp } = useApplication();
  const editable = (c: ActivityConfig) => ({
    url_mappings: c.url_mappings,
    supported_platforms: c.supported_platforms,
    default_orientation_lock_state: c.default_orientation_lock_state,
    tablet_default_orientation_lock_state: c.tablet_default_orientation_lock_state,
    requires_age_gate: c.requires_age_gate,
  });
  const { base, draft, set, reset, dirty } = useDraft(editable(saved));
  const [done, setDone] = useState(false);
  const form = useApiForm();
  const mappings = draft.url_mappings;
  const hasRoot = saved.url_mappings.some((mapping) => mapping.prefix === '/');

  const setMapping = (index: number, change: Partial<UrlMapping>) => {
    set(
      'url_mappings',
      mappings.map((mapping, i) => (i === index ? { ...mapping, ...change } : mapping)),
    );
  };

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body = {
      ...draft,
      url_mappings: mappings.map((m) => ({ prefix: m.prefix.trim(), target: m.target.trim() })),
    };
    void form.submit(
      () =>
        api<ActivityConfig>('PATCH', `/applications/${app.id}/embedded-activity-config`, {
          body,
        }),
      {
        validate: () => checkMappings(body.url_mappings),
        onSuccess: (updated) => {
          onSaved(updated);
          reset(editable(updated));
          setDone(true);
          // The root mapping sets or clears the EMBEDDED flag (1 << 17) on the application.
          const root = updated.url_mappings.some((mapping) => mapping.prefix === '/');
          const EMBEDDED = 1 << 17;
          setApp({ ...app, flags: root ? app.flags | EMBEDDED : app.flags & ~EMBEDDED });
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <CopyField
        label="Activity URL"
        value={saved.activity_origin}
        hint={
          hasRoot
            ? 'Your activity is served here; launch it from a voice channel or a DM.'
            : 'Add a root mapping (/) to make your app an activity.'
        }
      />
      <fieldset className="redirects">
        <legend>
          <h2>URL Mappings</h2>
        </legend>
        <p className="hint">
          Requests under a prefix go to its target, host[:port][/path]: https unless you write
          http://, and http for localhost. The root mapping (/) serves your activity. Up to{' '}
          {MAX_MAPPINGS}.
        </p>
        <FormError message={form.summary(['url_mappings', 'url_mappings.'])} />
        {form.errors['url_mappings'] === undefined ? null : (
          <p className="field-error" role="alert">
            {form.errors['url_mappings']}
          </p>
        )}
        <ol className="redirect-list">
          {mappings.map((mapping, index) => {
            const at = `url_mappings.${String(index)}`;
            return (
              <li key={index} className="redirect-row mapping-row">
                <MappingInput
                  id={`mapping-prefix-${String(index)}`}
                  label={`Prefix ${String(index + 1)}`}
                  value={mapping.prefix}
                  placeholder="/"
                  error={form.errors[`${at}.prefix`] ?? form.errors[at]}
                  onChange={(prefix) => {
                    setMapping(index, { prefix });
                  }}
                />
                <MappingInput
                  id={`mapping-target-${String(index)}`}
                  label={`Target ${String(index + 1)}`}
                  value={mapping.target}
                  placeholder="127.0.0.1:5173"
                  error={form.errors[`${at}.target`]}
                  onChange={(target) => {
                    setMapping(index, { target });
                  }}
                />
                <button
                  type="button"
                  aria-label={`Remove mapping ${String(index + 1)}`}
                  onClick={() => {
                    set(
                      'url_mappings',
                      mappings.filter((_, i) => i !== index),
                    );
                  }}
                >
                  Remove
                </button>
              </li>
            );
          })}
        </ol>
        <button
          type="button"
          disabled={mappings.length >= MAX_MAPPINGS}
          onClick={() => {
            set('url_mappings', [
              ...mappings,
              { prefix: mappings.length === 0 ? '/' : '', target: '' },
            ]);
          }}
        >
          Add Mapping
        </button>
      </fieldset>
      <fieldset>
        <legend>
          <h2>Supported Platforms</h2>
        </legend>
        <div className="checkbox-row">
          {PLATFORMS.map((platform) => (
            <label key={platform.value} className="checkbox">
              <input
                type="checkbox"
                checked={draft.supported_platforms.includes(platform.value)}
                onChange={(event) => {
                  set(
                    'supported_platforms',
                    event.target.checked
                      ? [...draft.supported_platforms, platform.value]
                      : draft.supported_platforms.filter((p) => p !== platform.value),
                  );
                }}
              />
              {platform.label}
            </label>
          ))}
        </div>
        <FieldMessage message={form.errors['supported_platforms']} />
      </fieldset>
      <fieldset>
        <legend>
          <h2>Orientation</h2>
        </legend>
        <OrientationSelect
          label="Default orientation lock (phones)"
          value={draft.default_orientation_lock_state}
          onChange={(value) => {
            set('default_orientation_lock_state', value);
          }}
        />
        <OrientationSelect
          label="Tablet orientation lock"
          value={draft.tablet_default_orientation_lock_state}
          onChange={(value) => {
            set('tablet_default_orientation_lock_state', value);
          }}
        />
      </fieldset>
      <Toggle
        label="Age gate"
        description="Only people who confirmed they are adults may launch the activity."
        checked={draft.requires_age_gate}
        onChange={(on) => {
          set('requires_age_gate', on);
        }}
      />
      <SaveBar
        dirty={dirty}
        busy={form.busy}
        saved={done}
        onReset={() => {
          reset(base);
          form.reset();
        }}
      />
    </form>
  );
}

function FieldMessage({ message }: { message: string | undefined }) {
  return message === undefined ? null : (
    <p className="field-error" role="alert">
      {message}
    </p>
  );
}

function MappingInput(props: {
  id: string;
  label: string;
  value: string;
  placeholder: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const { id, label, value, placeholder, error, onChange } = props;
  return (
    <span className="mapping-cell">
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <input
        id={id}
        value={value}
        placeholder={placeholder}
        spellCheck={false}
        aria-invalid={error === undefined ? undefined : true}
        aria-describedby={error === undefined ? undefined : `${id}-error`}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      {error === undefined ? null : (
        <span className="field-error" id={`${id}-error`} role="alert">
          {error}
        </span>
      )}
    </span>
  );
}

function OrientationSelect(props: {
  label: string;
  value: number;
  onChange: (value: number) => void;
}) {
  return (
    <label className="field">
      <span className="field-label">{props.label}</span>
      <select
        value={props.value}
        onChange={(event) => {
          props.onChange(Number(event.target.value));
        }}
      >
        {ORIENTATIONS.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </label>
  );
}
