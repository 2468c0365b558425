import { useId, useState, type SyntheticEvent } from 'react';
import { Field, FormError } from '../../components/Field.js';
import { Toggle } from '../../components/Toggle.js';
import { useApiForm } from '../../components/useApiForm.js';
import { patchApplication, useApplication } from '../context.js';
import { PageTitle, SaveBar, useDraft } from '../forms.js';
import { changedFields, type PortalApplication } from '../model.js';
import { checkOptionalUrl, collect } from '../validation.js';

/** The event types an app may subscribe to (server resources/applications/eventWebhooks.ts). */
const EVENT_TYPES = [
  'APPLICATION_AUTHORIZED',
  'APPLICATION_DEAUTHORIZED',
  'ENTITLEMENT_CREATE',
  'ENTITLEMENT_DELETE',
  'ENTITLEMENT_UPDATE',
  'GAME_DIRECT_MESSAGE_CREATE',
  'GAME_DIRECT_MESSAGE_DELETE',
  'GAME_DIRECT_MESSAGE_UPDATE',
  'LOBBY_MESSAGE_CREATE',
  'LOBBY_MESSAGE_DELETE',
  'LOBBY_MESSAGE_UPDATE',
  'QUEST_USER_ENROLLMENT',
] as const;

/** ApplicationEventWebhooksStatus. */
const ENABLED = 2;
const DISABLED_BY_PLATFORM = 3;

interface WebhooksDraft {
  event_webhooks_url: string;
  enabled: boolean;
  event_webhooks_types: string[];
}

function draftOf(app: PortalApplication): WebhooksDraft {
  return {
    event_webhooks_url: app.event_webhooks_url ?? '',
    enabled: app.event_webhooks_status === ENABLED,
    event_webhooks_types: app.event_webhooks_types,
  };
}

function bodyOf(draft: WebhooksDraft) {
  return {
    event_webhooks_url: draft.event_webhooks_url.trim() || null,
    event_webhooks_status: draft.enabled ? 2 : 1,
    event_webhooks_types: draft.event_webhooks_types,
  };
}

/**
 * Webhook events (docs/webhook-events.md): the URL (kept only once it answers the signed PING),
 * whether events are sent, and which.
 */
export function WebhooksPage() {
  const { app, setApp } = useApplication();
  const { base, draft, set, reset, dirty } = useDraft(draftOf(app));
  const [saved, setSaved] = useState(false);
  const form = useApiForm();
  const id = useId();

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    const body: Record<string, unknown> = changedFields(bodyOf(base), bodyOf(draft));
    // A new URL turns events on by itself; sending the status too would check the URL twice.
    if ('event_webhooks_url' in body && draft.enabled) delete body['event_webhooks_status'];
    void form.submit(() => patchApplication(app.id, body), {
      validate: () =>
        collect({
          event_webhooks_url: checkOptionalUrl(draft.event_webhooks_url.trim()),
          event_webhooks_status:
            draft.enabled && draft.event_webhooks_url.trim() === ''
              ? 'Webhook events cannot be enabled without a webhook events URL.'
              : undefined,
        }),
      onSuccess: (updated) => {
        setApp(updated);
        reset(draftOf(updated));
        setSaved(true);
      },
    });
  };

  const typesError = Object.entries(form.errors)
    .filter(([path]) => path.startsWith('event_webhooks_types'))
    .map(([, message]) => message)
    .join(' ');

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <PageTitle title="Webhooks">
        Receive events about your app (authorizations, entitlements, lobby and game messages) as
        signed HTTP requests.
      </PageTitle>
      <FormError
        message={form.summary([
          'event_webhooks_url',
          'event_webhooks_status',
          'event_webhooks_types',
          'event_webhooks_types.',
        ])}
      />
      {app.event_webhooks_status === DISABLED_BY_PLATFORM ? (
        <p className="warning">
          The platform turned events off after repeated delivery failures. Fix the endpoint, then
          turn them on again.
        </p>
      ) : null}
      <Field
        label="Event Webhooks URL"
        type="url"
        value={draft.event_webhooks_url}
        error={form.errors['event_webhooks_url']}
        hint="Kept only once it answers the platform's signed PING with 204."
        onChange={(event) => {
          set('event_webhooks_url', event.target.value);
        }}
      />
      <Toggle
        label="Events"
        description="Send the events below to the URL."
        checked={draft.enabled}
        onChange={(on) => {
          set('enabled', on);
        }}
      />
      {form.errors['event_webhooks_status'] === undefined ? null : (
        <p className="field-error" role="alert">
          {form.errors['event_webhooks_status']}
        </p>
      )}
      <fieldset aria-describedby={typesError === '' ? undefined : `${id}-types-error`}>
        <legend>Event Types</legend>
        <div className="checkbox-grid">
          {EVENT_TYPES.map((type) => (
            <label key={type} className="checkbox">
              <input
                type="checkbox"
                checked={draft.event_webhooks_types.includes(type)}
                onChange={(event) => {
                  set(
                    'event_webhooks_types',
                    EVENT_TYPES.filter((t) =>
                      t === type ? event.target.checked : draft.event_webhooks_types.includes(t),
                    ),
                  );
                }}
              />
              <span className="mono">{type}</span>
            </label>
          ))}
        </div>
        {typesError === '' ? null : (
          <p className="field-error" id={`${id}-types-error`} role="alert">
            {typesError}
          </p>
        )}
      </fieldset>
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
