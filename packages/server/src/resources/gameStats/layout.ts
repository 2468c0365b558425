/**
 * @module Game-stats widget layouts (docs/social-stats.md#widget-layouts), a Guildhall extension:
 * the platform's portal lets a claimed game choose the widgets its players' profiles show and
 * which stats fill them, but does not publish the shape. Here a layout is
 * `{widgets: [{type, title, fields: [{key, label, kind}]}]}`; `kind` "primary" names one of the
 * pre-defined primary fields, "dynamic" a custom field by its name. `renderWidgets` fills a
 * layout with one player's stats.
 */
import { z } from 'zod';
import { MAX_FIELD_NAME_LENGTH, PrimaryFields } from './schemas.js';

/** The most widgets a layout holds, and fields per widget (a highlight shows at most 3). */
export const MAX_WIDGETS = 4;
export const MAX_WIDGET_FIELDS = 10;
export const MAX_HIGHLIGHT_FIELDS = 3;
export const MAX_WIDGET_TITLE_LENGTH = 64;

/** The widget types: a few big numbers (`highlight`), or label and value rows (`list`). */
export const WIDGET_TYPES = ['highlight', 'list'] as const;

/** The primary field keys a layout may name (the stats a game writes, api-facts §9). */
export const PRIMARY_FIELD_KEYS = Object.keys(PrimaryFields.shape);

const Label = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !/[\p{Cc}\u202a-\u202e\u2066-\u2069]/u.test(value), {
      message: 'Control characters are not allowed.',
    });

const WidgetField = z
  .strictObject({
    key: Label(MAX_FIELD_NAME_LENGTH),
    label: Label(MAX_FIELD_NAME_LENGTH),
    kind: z.enum(['primary', 'dynamic']),
  })
  .superRefine((field, ctx) => {
    if (field.kind === 'primary' && !PRIMARY_FIELD_KEYS.includes(field.key)) {
      ctx.addIssue({
        code: 'custom',
        path: ['key'],
        message: `Not a primary field; one of ${PRIMARY_FIELD_KEYS.join(', ')}.`,
      });
    }
  });

const Widget = z
  .strictObject({
    type: z.enum(WIDGET_TYPES),
    title: Label(MAX_WIDGET_TITLE_LENGTH),
    fields: z.array(WidgetField).min(1).max(MAX_WIDGET_FIELDS),
  })
  .superRefine((widget, ctx) => {
    if (widget.type === 'highlight' && widget.fields.length > MAX_HIGHLIGHT_FIELDS) {
      ctx.addIssue({
        code: 'custom',
        path: ['fields'],
        message: `A highlight widget shows at most ${MAX_HIGHLIGHT_FIELDS} fields.`,
      });
    }
    const seen = new Set<string>();
    widget.fields.forEach((field, index) => {
      const id = `${field.kind}:${field.key}`;
      if (seen.has(id)) {
        ctx.addIssue({
          code: 'custom',
          path: ['fields', index, 'key'],
          message: 'A field appears once per widget.',
        });
      }
      seen.add(id);
    });
  });

/** PUT /applications/{id}/game-stats/layout. */
export const StatsLayoutBody = z.strictObject({
  widgets: z.array(Widget).max(MAX_WIDGETS),
});
export type StatsLayout = z.output<typeof StatsLayoutBody>;

/** The layout of an application that set none. */
export const EMPTY_LAYOUT: StatsLayout = { widgets: [] };

/** A layout as stored; a row that no longer parses (a rule tightened since) reads as empty. */
export function storedLayout(value: unknown): StatsLayout {
  const parsed = StatsLayoutBody.safeParse(value);
  return parsed.success ? parsed.data : EMPTY_LAYOUT;
}

type Value = string | number | { url: string };

/** One player's value of a layout field, from the stats data `{primary, dynamic}`. */
function valueOf(data: Record<string, unknown> | null, kind: string, key: string): Value | null {
  if (data === null) return null;
  if (kind === 'primary') {
    const primary = data['primary'];
    if (typeof primary !== 'object' || primary === null) return null;
    const value: unknown = (primary as Record<string, unknown>)[key];
    return value === undefined ? null : (value as Value);
  }
  const dynamic = data['dynamic'];
  if (!Array.isArray(dynamic)) return null;
  const field: unknown = dynamic.find(
    (entry: unknown) =>
      typeof entry === 'object' && entry !== null && (entry as { name?: unknown }).name === key,
  );
  return field === undefined ? null : (field as { value: Value }).value;
}

/**
 * The layout filled with one player's stats: each field with its `value`; fields the player has
 * no value for are left out, and so are widgets left empty.
 */
export function renderWidgets(layout: StatsLayout, data: Record<string, unknown> | null) {
  return layout.widgets.flatMap((widget) => {
    const fields = widget.fields.flatMap((field) => {
      const value = valueOf(data, field.kind, field.key);
      return value === null ? [] : [{ ...field, value }];
    });
    return fields.length === 0 ? [] : [{ type: widget.type, title: widget.title, fields }];
  });
}
