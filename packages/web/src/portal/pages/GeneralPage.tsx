import { useState, type SyntheticEvent } from 'react';
import { CopyField } from '../../components/CopyField.js';
import { Field, FormError } from '../../components/Field.js';
import { useApiForm } from '../../components/useApiForm.js';
import { AppIcon } from '../AppIcon.js';
import { patchApplication, useApplication } from '../context.js';
import { PageTitle, SaveBar, TextAreaField, useDraft } from '../forms.js';
import { changedFields, type PortalApplication } from '../model.js';
import { CoverImage, ImagePicker } from './ImagePicker.js';
import { checkAppName, checkMaxLength, checkOptionalUrl, collect } from '../validation.js';

interface GeneralDraft {
  name: string;
  description: string;
  tags: string;
  interactions_endpoint_url: string;
  event_webhooks_url: string;
}

function draftOf(app: PortalApplication): GeneralDraft {
  return {
    name: app.name,
    description: app.description,
    tags: app.tags.join(', '),
    interactions_endpoint_url: app.interactions_endpoint_url ?? '',
    event_webhooks_url: app.event_webhooks_url ?? '',
  };
}

/** The wire body of the draft's fields: empty URLs are null, tags a list. */
function bodyOf(draft: GeneralDraft) {
  return {
    name: draft.name,
    description: draft.description,
    tags: splitTags(draft.tags),
    interactions_endpoint_url: draft.interactions_endpoint_url.trim() || null,
    event_webhooks_url: draft.event_webhooks_url.trim() || null,
  };
}

function splitTags(text: string): string[] {
  return text
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag !== '');
}

/** Name, icon, description, tags, ids and the two endpoint URLs the server checks. */
export function GeneralPage() {
  const { app, setApp } = useApplication();
  const { base, draft, set, reset, dirty } = useDraft(draftOf(app));
  const [icon, setIcon] = useState<string | null | undefined>(undefined);
  const [cover, setCover] = useState<string | null | undefined>(undefined);
  const [saved, setSaved] = useState(false);
  const form = useApiForm();

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Only what changed: an unchanged endpoint URL is not checked again, a rename is explicit.
    const body: Record<string, unknown> = changedFields(bodyOf(base), bodyOf(draft));
    if (icon !== undefined) body['icon'] = icon;
    if (cover !== undefined) body['cover_image'] = cover;
    void form.submit(() => patchApplication(app.id, body), {
      validate: () => {
        const tags = splitTags(draft.tags);
        const checks: Record<string, string | undefined> = {
          name: checkAppName(draft.name),
          description: checkMaxLength(draft.description, 400),
          interactions_endpoint_url: checkOptionalUrl(draft.interactions_endpoint_url.trim()),
          event_webhooks_url: checkOptionalUrl(draft.event_webhooks_url.trim()),
          tags:
            tags.length > 5
              ? 'At most 5 tags.'
              : tags.some((tag) => tag.length > 20)
                ? 'Each tag must be 20 or fewer in length.'
                : undefined,
        };
        return collect(checks);
      },
      onSuccess: (updated) => {
        setApp(updated);
        reset(draftOf(updated));
        setIcon(undefined);
        setCover(undefined);
        setSaved(true);
      },
    });
  };

  const tagsError = Object.entries(form.errors)
    .filter(([path]) => path === 'tags' || path.startsWith('tags.'))
    .map(([, message]) => message)
    .join(' ');
  const shown = [
    'name',
    'description',
    'icon',
    'cover_image',
    'tags',
    'tags.',
    'interactions_endpoint_url',
    'event_webhooks_url',
    'event_webhooks_status',
  ];

  return (
    <form className="settings-form" onSubmit={submit} noValidate>
      <PageTitle title="General Information">
        What your app is called and what it does, and where the platform sends its interactions and
        events.
      </PageTitle>
      <FormError message={form.summary(shown)} />
      <div className="two-columns">
        <div>
          <Field
            label="Name"
            value={draft.name}
            maxLength={32}
            required
            autoComplete="off"
            error={form.errors['name']}
            onChange={(event) => {
              set('name', event.target.value);
            }}
          />
          <TextAreaField
            label="Description"
            value={draft.description}
            maxLength={400}
            rows={4}
            error={form.errors['description']}
            hint="Shown on the app's profile. At most 400 characters."
            onChange={(event) => {
              set('description', event.target.value);
            }}
          />
          <Field
            label="Tags"
            value={draft.tags}
            error={tagsError === '' ? undefined : tagsError}
            hint="Up to 5, separated by commas, 20 characters each."
            onChange={(event) => {
              set('tags', event.target.value);
            }}
          />
        </div>
        <div>
          <ImagePicker
            label="App Icon"
            noun="Icon"
            current={<AppIcon app={app} size={96} />}
            cleared={<AppIcon app={{ ...app, icon: null }} size={96} />}
            hasImage={app.icon !== null}
            pending={icon}
            error={form.errors['icon']}
            onPick={setIcon}
            onRemove={() => {
              setIcon(null);
            }}
          />
          <ImagePicker
            label="Cover Image"
            noun="Cover Image"
            hint="Shown on invites to your activity or game when they name no image of their own."
            current={<CoverImage app={app} />}
            cleared={<CoverImage app={{ ...app, cover_image: undefined }} />}
            hasImage={app.cover_image !== undefined}
            pending={cover}
            error={form.errors['cover_image']}
            onPick={setCover}
            onRemove={() => {
              setCover(null);
            }}
          />
        </div>
      </div>
      <CopyField label="Application ID" value={app.id} />
      <CopyField label="Public Key" value={app.verify_key} secret />
      <Field
        label="Interactions Endpoint URL"
        type="url"
        inputMode="url"
        value={draft.interactions_endpoint_url}
        error={form.errors['interactions_endpoint_url']}
        hint="Receives interactions over HTTP instead of the gateway. Saved only once it answers the platform's signed PING (and refuses a badly signed one)."
        onChange={(event) => {
          set('interactions_endpoint_url', event.target.value);
        }}
      />
      <Field
        label="Event Webhooks URL"
        type="url"
        inputMode="url"
        value={draft.event_webhooks_url}
        error={form.errors['event_webhooks_url'] ?? form.errors['event_webhooks_status']}
        hint="Receives the webhook events you pick on the Webhooks page; checked with a PING too."
        onChange={(event) => {
          set('event_webhooks_url', event.target.value);
        }}
      />
      <SaveBar
        dirty={dirty || icon !== undefined || cover !== undefined}
        busy={form.busy}
        saved={saved}
        onReset={() => {
          reset(base);
          setIcon(undefined);
          setCover(undefined);
          form.reset();
        }}
      />
    </form>
  );
}
