import { useEffect, useState, type SyntheticEvent } from 'react';
import { api, errorMessage } from '../../lib/api.js';
import { FormError } from '../../components/Field.js';
import { useApiForm } from '../../components/useApiForm.js';
import { useApplication } from '../context.js';
import { PageTitle, SaveBar, useDraft } from '../forms.js';

interface StatField {
  key: string;
  label: string;
  kind: 'primary' | 'dynamic';
}

interface Widget {
  type: 'highlight' | 'list';
  title: string;
  fields: StatField[];
}

/** The pre-defined primary fields (server resources/gameStats/schemas.ts PrimaryFields). */
const PRIMARY_FIELDS = [
  'season',
  'rank_name',
  'rank_image',
  'highest_rank',
  'highest_rank_image',
  'featured_played_character',
  'featured_played_character_image',
  'playtime_hours',
  'total_wins',
  'current_period_wins',
  'total_games',
  'current_period_games',
  'total_kills',
  'current_period_kills',
  'total_assists',
  'current_period_assists',
  'total_deaths',
  'current_period_deaths',
] as const;

/** Limits of docs/social-stats.md#widget-layouts. */
const MAX_WIDGETS = 4;
const MAX_FIELDS = { highlight: 3, list: 10 } as const;
const MAX_TEXT = 64;

/** The layout's mistakes the API would answer, by the API's paths (the API stays the judge). */
function checkLayout(widgets: readonly Widget[]): Record<string, string> {
  const out: Record<string, string> = {};
  const text = (path: string, value: string) => {
    if (value.trim() === '') out[path] = 'This field is required.';
    else if (value.length > MAX_TEXT) out[path] = `Must be ${String(MAX_TEXT)} or fewer in length.`;
  };
  widgets.forEach((widget, index) => {
    const at = `widgets.${String(index)}`;
    text(`${at}.title`, widget.title);
    if (widget.fields.length === 0) out[`${at}.fields`] = 'Add at least one field.';
    if (widget.fields.length > MAX_FIELDS[widget.type]) {
      out[`${at}.fields`] =
        `A ${widget.type} widget has at most ${String(MAX_FIELDS[widget.type])} fields.`;
    }
    const seen = new Set<string>();
    widget.fields.forEach((field, fieldIndex) => {
      const fieldAt = `${at}.fields.${String(fieldIndex)}`;
      text(`${fieldAt}.key`, field.key);
      text(`${fieldAt}.label`, field.label);
      const id = `${field.kind}:${field.key}`;
      if (seen.has(id)) out[`${fieldAt}.key`] = 'A field appears once per widget.';
      seen.add(id);
    });
  });
  return out;
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
        validate: () => checkLayout(widgets),
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
      <FormError message={form.summary(shownPaths(widgets))} />
      {form.errors['widgets'] === undefined ? null : <CellError message={form.errors['widgets']} />}
      <p className="hint">
        Up to {MAX_WIDGETS} widgets. A highlight shows up to 3 values big; a list up to 10 rows.
        Primary fields are the platform's pre-defined stats; dynamic ones are your own, by name.
      </p>
      {widgets.length === 0 ? <p>No widgets yet.</p> : null}
      {widgets.map((widget, index) => (
        <fieldset key={index} className="widget-editor">
          <legend>Widget {index + 1}</legend>
          <label className="field">
            <span className="field-label">Widget {index + 1} type</span>
            <select
              value={widget.type}
              onChange={(event) => {
                setWidget(index, { type: event.target.value === 'list' ? 'list' : 'highlight' });
              }}
            >
              <option value="highlight">Highlight (up to 3 big values)</option>
              <option value="list">List (label and value rows)</option>
            </select>
          </label>
          <TextInput
            label={`Widget ${String(index + 1)} title`}
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
                <th scope="col">Kind</th>
                <th scope="col">Key</th>
                <th scope="col">Label</th>
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
                    <td>
                      <select
                        aria-label={`Kind of ${where}`}
                        value={field.kind}
                        onChange={(event) => {
                          const kind = event.target.value === 'dynamic' ? 'dynamic' : 'primary';
                          change({ kind, key: kind === 'primary' ? PRIMARY_FIELDS[0] : '' });
                        }}
                      >
                        <option value="primary">Primary</option>
                        <option value="dynamic">Dynamic (custom)</option>
                      </select>
                      <CellError message={form.errors[`${path}.kind`]} />
                    </td>
                    <td>
                      {field.kind === 'primary' ? (
                        <select
                          aria-label={`Key of ${where}`}
                          value={field.key}
                          aria-invalid={form.errors[`${path}.key`] === undefined ? undefined : true}
                          onChange={(event) => {
                            change({ key: event.target.value });
                          }}
                        >
                          {PRIMARY_FIELDS.map((key) => (
                            <option key={key} value={key}>
                              {key}
                            </option>
                          ))}
                        </select>
                      ) : (
                        <input
                          aria-label={`Key of ${where}`}
                          value={field.key}
                          maxLength={MAX_TEXT}
                          aria-invalid={form.errors[`${path}.key`] === undefined ? undefined : true}
                          onChange={(event) => {
                            change({ key: event.target.value });
                          }}
                        />
                      )}
                      <CellError message={form.errors[`${path}.key`]} />
                    </td>
                    <td>
                      <input
                        aria-label={`Label of ${where}`}
                        value={field.label}
                        maxLength={MAX_TEXT}
                        aria-invalid={form.errors[`${path}.label`] === undefined ? undefined : true}
                        onChange={(event) => {
                          change({ label: event.target.value });
                        }}
                      />
                      <CellError message={form.errors[`${path}.label`]} />
                    </td>
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
          <CellError message={form.errors[`widgets.${String(index)}.fields`]} />
          <div className="row-actions">
            <button
              type="button"
              disabled={widget.fields.length >= MAX_FIELDS[widget.type]}
              onClick={() => {
                setWidget(index, {
                  fields: [
                    ...widget.fields,
                    { key: PRIMARY_FIELDS[0], label: '', kind: 'primary' },
                  ],
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
        disabled={widgets.length >= MAX_WIDGETS}
        onClick={() => {
          set('widgets', [...widgets, { type: 'list', title: '', fields: [] }]);
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

/** The error paths the editor shows next to an input (any other goes above the form). */
function shownPaths(widgets: readonly Widget[]): string[] {
  const paths = ['widgets'];
  widgets.forEach((widget, index) => {
    const at = `widgets.${String(index)}`;
    paths.push(`${at}.title`, `${at}.fields`);
    widget.fields.forEach((_, fieldIndex) => {
      for (const part of ['kind', 'key', 'label']) {
        paths.push(`${at}.fields.${String(fieldIndex)}.${part}`);
      }
    });
  });
  return paths;
}

function CellError({ message }: { message: string | undefined }) {
  if (message === undefined) return null;
  return (
    <p className="field-error" role="alert">
      {message}
    </p>
  );
}
