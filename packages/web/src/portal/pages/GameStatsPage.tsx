import { useEffect, useState, type SyntheticEvent } from 'react';
import { api, errorMessage } from '../../lib/api.js';
import { FormError } from '../../components/Field.js';
import { useApiForm } from '../../components/useApiForm.js';
import { useApplication } from '../context.js';
import { PageTitle, SaveBar, useDraft } from '../forms.js';

interface StatField {
  key: string;
  label: string;
  kind: string;
}

interface Widget {
  type: string;
  title: string;
  fields: StatField[];
}

interface Layout {
  widgets: Widget[];
}

/** Game-stats widget layouts: which values of a player's stats the profile widgets show. */
export function GameStatsPage() {
  const { app } = useApplication();
  const [layout, setLayout] = useState<Layout | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    api<Layout>('GET', `/applications/${app.id}/game-stats/layout`, {
      signal: controller.signal,
    }).then(setLayout, (error: unknown) => {
      if (!controller.signal.aborted) setLoadError(errorMessage(error));
    });
    return () => {
      controller.abort();
    };
  }, [app.id]);

  return (
    <div className="settings-form">
      <PageTitle title="Game Stats">
        Widgets on a player's profile, filled with the values your bot writes for them.
      </PageTitle>
      <FormError message={loadError} />
      {layout === null ? (
        loadError === null ? (
          <p role="status">Loading the layout…</p>
        ) : null
      ) : (
        <LayoutEditor applicationId={app.id} saved={layout} onSaved={setLayout} />
      )}
    </div>
  );
}

function LayoutEditor({
  applicationId,
  saved,
  onSaved,
}: {
  applicationId: string;
  saved: Layout;
  onSaved: (layout: Layout) => void;
}) {
  const { base, draft, set, reset, dirty } = useDraft(saved);
  const [done, setDone] = useState(false);
  const form = useApiForm();
  const widgets = draft.widgets;

  const setWidget = (index: number, change: Partial<Widget>) => {
    set(
      'widgets',
      widgets.map((widget, i) => (i === index ? { ...widget, ...change } : widget)),
    );
  };

  const submit = (event: SyntheticEvent<HTMLFormElement>) => {
    event.preventDefault();
    void form.submit(
      () =>
        api<Layout>('PUT', `/applications/${applicationId}/game-stats/layout`, {
          body: { widgets },
        }),
      {
        onSuccess: (layout) => {
          onSaved(layout);
          reset(layout);
          setDone(true);
        },
      },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <FormError message={form.summary(['widgets.'])} />
      {widgets.length === 0 ? <p>No widgets yet.</p> : null}
      {widgets.map((widget, index) => (
        <fieldset key={index} className="widget-editor">
          <legend>Widget {index + 1}</legend>
          <TextInput
            label="Widget type"
            value={widget.type}
            error={form.errors[`widgets.${String(index)}.type`]}
            onChange={(type) => {
              setWidget(index, { type });
            }}
          />
          <TextInput
            label="Widget title"
            value={widget.title}
            error={form.errors[`widgets.${String(index)}.title`]}
            onChange={(title) => {
              setWidget(index, { title });
            }}
          />
          <table className="data-table">
            <caption>Fields of widget {index + 1}</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Label</th>
                <th scope="col">Kind</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {widget.fields.map((field, fieldIndex) => {
                const path = `widgets.${String(index)}.fields.${String(fieldIndex)}`;
                const change = (next: Partial<StatField>) => {
                  setWidget(index, {
                    fields: widget.fields.map((f, i) => (i === fieldIndex ? { ...f, ...next } : f)),
                  });
                };
                const where = `field ${String(fieldIndex + 1)} of widget ${String(index + 1)}`;
                return (
                  <tr key={fieldIndex}>
                    {(['key', 'label', 'kind'] as const).map((part) => (
                      <td key={part}>
                        <input
                          aria-label={`${part[0]?.toUpperCase() ?? ''}${part.slice(1)} of ${where}`}
                          value={field[part]}
                          aria-invalid={
                            form.errors[`${path}.${part}`] === undefined ? undefined : true
                          }
                          onChange={(event) => {
                            change({ [part]: event.target.value });
                          }}
                        />
                        {form.errors[`${path}.${part}`] === undefined ? null : (
                          <p className="field-error" role="alert">
                            {form.errors[`${path}.${part}`]}
                          </p>
                        )}
                      </td>
                    ))}
                    <td>
                      <button
                        type="button"
                        aria-label={`Remove ${where}`}
                        onClick={() => {
                          setWidget(index, {
                            fields: widget.fields.filter((_, i) => i !== fieldIndex),
                          });
                        }}
                      >
                        Remove
                      </button>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="row-actions">
            <button
              type="button"
              onClick={() => {
                setWidget(index, {
                  fields: [...widget.fields, { key: '', label: '', kind: 'number' }],
                });
              }}
            >
              Add Field
            </button>
            <button
              type="button"
              className="danger"
              onClick={() => {
                set(
                  'widgets',
                  widgets.filter((_, i) => i !== index),
                );
              }}
            >
              Remove Widget {index + 1}
            </button>
          </div>
        </fieldset>
      ))}
      <button
        type="button"
        onClick={() => {
          set('widgets', [...widgets, { type: '', title: '', fields: [] }]);
        }}
      >
        Add Widget
      </button>
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

function TextInput({
  label,
  value,
  error,
  onChange,
}: {
  label: string;
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <label className="field">
      <span className="field-label">{label}</span>
      <input
        value={value}
        aria-invalid={error === undefined ? undefined : true}
        onChange={(event) => {
          onChange(event.target.value);
        }}
      />
      {error === undefined ? null : (
        <span className="field-error" role="alert">
          {error}
        </span>
      )}
    </label>
  );
}
