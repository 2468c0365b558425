import { z } from 'zod';
import { QueryBoolean, Snowflake, queryInt } from '../../http/schemas.js';

/**
 * A repeatable query parameter (`?author_id=1&author_id=2`,
 * docs/platform-notes.md#versions-and-query-strings): one value arrives as a string, several as an
 * array; either becomes an array of at most `max` distinct items.
 */
function queryArray<TItem extends z.ZodType<string>>(item: TItem, max: number) {
  return z.preprocess(
    (value) => (typeof value === 'string' ? [value] : value),
    z
      .array(item)
      .max(max)
      .transform((items) => [...new Set(items)]),
  );
}

/** Author kinds a search can include, or exclude with a `-` prefix. */
export const AUTHOR_TYPES = ['user', 'bot', 'webhook'] as const;

/** What a message can have (`has`), or not have with a `-` prefix. */
export const HAS_KINDS = [
  'image',
  'sound',
  'video',
  'file',
  'sticker',
  'embed',
  'link',
  'poll',
  'snapshot',
] as const;

/** Embed types a search can ask for (`gif` is the gifv embed). */
export const EMBED_TYPES = ['image', 'video', 'gif', 'sound', 'article'] as const;
export type SearchEmbedType = (typeof EMBED_TYPES)[number];

/** An enum of `values` and their `-` negations. */
function negatable<T extends string>(values: readonly T[]) {
  const all: (T | `-${T}`)[] = [...values, ...values.map((value): `-${T}` => `-${value}`)];
  return z.enum(all as [T | `-${T}`, ...(T | `-${T}`)[]]);
}

/** A text filter value: at most `max` characters, no control characters. */
const Text = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .refine((value) => !/\p{Cc}/u.test(value), {
      message: 'Text cannot contain control characters.',
      params: { code: 'BASE_TYPE_INVALID' },
    });

/**
 * The filters matched by scanning text (the message's, or its attachments' file names) rather
 * than through an index: each value is one more LIKE pattern tried on every candidate message, and
 * a `link_hostname` value is nine (one per character that may end a host name). Their values
 * share one budget, and link hostnames have a smaller one of their own, so one query's work stays
 * bounded whatever the platform's per-filter maxima allow (docs/search.md).
 */
export const SCANNED_FILTERS = [
  'link_hostname',
  'attachment_filename',
  'attachment_extension',
] as const;
export const MAX_SCANNED_VALUES = 100;
export const MAX_LINK_HOSTNAMES = 10;

/**
 * GET /guilds/{id}/messages/search: the filters of docs/search.md with the limits of openapi.json
 * (`guild_search`), and the scan budget above. Repeated keys are arrays; repeated values are kept
 * once.
 */
export const SearchQuery = z
  .object({
    content: z.string().max(1024).optional(),
    slop: queryInt(0, 100).optional(),
    author_id: queryArray(Snowflake, 100).optional(),
    author_type: queryArray(negatable(AUTHOR_TYPES), 6).optional(),
    mentions: queryArray(Snowflake, 100).optional(),
    mentions_role_id: queryArray(Snowflake, 100).optional(),
    mention_everyone: QueryBoolean.optional(),
    replied_to_user_id: queryArray(Snowflake, 100).optional(),
    replied_to_message_id: queryArray(Snowflake, 100).optional(),
    pinned: QueryBoolean.optional(),
    has: queryArray(negatable(HAS_KINDS), 18).optional(),
    embed_type: queryArray(z.enum(EMBED_TYPES), 5).optional(),
    embed_provider: queryArray(Text(256), 100).optional(),
    link_hostname: queryArray(Text(256), 100).optional(),
    attachment_filename: queryArray(Text(1024), 100).optional(),
    attachment_extension: queryArray(Text(256), 100).optional(),
    channel_id: queryArray(Snowflake, 500).optional(),
    min_id: Snowflake.optional(),
    max_id: Snowflake.optional(),
    include_nsfw: QueryBoolean.optional(),
    sort_by: z.enum(['timestamp', 'relevance']).default('timestamp'),
    sort_order: z.enum(['asc', 'desc']).default('desc'),
    limit: queryInt(1, 25).default(25),
    offset: queryInt(0, 9975).default(0),
  })
  .superRefine((query, ctx) => {
    const tooMany = (field: string, max: number) => {
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `Must be ${max} or fewer in length.`,
        params: { code: 'BASE_TYPE_MAX_LENGTH' },
      });
    };
    if ((query.link_hostname?.length ?? 0) > MAX_LINK_HOSTNAMES) {
      tooMany('link_hostname', MAX_LINK_HOSTNAMES);
      return;
    }
    let scanned = 0;
    for (const field of SCANNED_FILTERS) {
      scanned += query[field]?.length ?? 0;
      if (scanned > MAX_SCANNED_VALUES) {
        // The field that went past the shared budget is the one named.
        tooMany(field, MAX_SCANNED_VALUES - (scanned - (query[field]?.length ?? 0)));
        return;
      }
    }
  });
export type SearchInput = z.output<typeof SearchQuery>;

/** Splits `-x` values from `x` values. */
export function splitNegated<T extends string>(
  values: readonly (T | `-${T}`)[] | undefined,
): { include: T[]; exclude: T[] } {
  const include: T[] = [];
  const exclude: T[] = [];
  for (const value of values ?? []) {
    if (value.startsWith('-')) exclude.push(value.slice(1) as T);
    else include.push(value as T);
  }
  return { include, exclude };
}

/**
 * The words of a content query, as both databases' tokenisers see text: runs of letters, marks and
 * digits; everything else (quotes, `*`, `-`, `NEAR`'s parentheses, punctuation) only separates
 * words. Search operators are therefore never interpreted: each word is matched as a word.
 */
export function searchTerms(content: string): string[] {
  return content.match(/[\p{L}\p{M}\p{N}]+/gu) ?? [];
}
