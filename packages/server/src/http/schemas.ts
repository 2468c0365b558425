import { isSnowflake, parsePermissions } from '@guildhall/protocol';
import { z } from 'zod';

/** A snowflake in a path, query or body: decimal digits that fit in 64 bits. */
export const Snowflake = z.string().refine(isSnowflake, {
  message: 'Value is not snowflake.',
  params: { code: 'NUMBER_TYPE_COERCE' },
});

/** A query-string integer (query values arrive as strings). */
export function queryInt(min: number, max: number) {
  return z.coerce.number().int().min(min).max(max);
}

/**
 * A query-string boolean: true/True/1 and false/False/0
 * (docs/platform-notes.md#versions-and-query-strings).
 */
export const QueryBoolean = z
  .enum(['true', 'True', '1', 'false', 'False', '0'])
  .transform((value) => value === 'true' || value === 'True' || value === '1');

/** The longest audit log reason the platform keeps. */
const MAX_AUDIT_LOG_REASON_LENGTH = 512;

/** The platform's audit log reason header, decoded and capped at 512 characters. */
export function auditLogReason(header: string | string[] | undefined): string | null {
  const raw = Array.isArray(header) ? header[0] : header;
  if (raw === undefined || raw === '') return null;
  let reason = raw;
  try {
    reason = decodeURIComponent(raw);
  } catch {
    // Not percent-encoded: keep it as sent.
  }
  // PostgreSQL text cannot hold NUL; nothing else is lost by dropping control characters.
  return reason.replace(/\p{Cc}/gu, ' ').slice(0, MAX_AUDIT_LOG_REASON_LENGTH);
}

/** The `{guild_id}` of a guild route (checked by the service: an unknown one is 10004). */
export const GuildParams = z.object({ guild_id: z.string() });

/**
 * A permission bitset in a body: a decimal string of at most 64 digits (what the platform and
 * discord.js send) or a safe non-negative JSON integer (older clients). Bits the platform does
 * not define are dropped (masked with ALL_PERMISSIONS), never stored (as the platform does:
 * docs/platform-notes.md#versions-and-query-strings).
 */
export const PermissionBits = z
  .union([
    z.string().regex(/^\d{1,64}$/, 'Value is not a permission bitset.'),
    z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER),
  ])
  .transform((value) => parsePermissions(String(value)));

const ISO_TIMESTAMP =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

/** An ISO 8601 timestamp with its zone (as the platform sends and takes them), as epoch ms. */
export const IsoTimestamp = z
  .string()
  .refine((value) => ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value)), {
    message: 'Could not parse timestamp. Should be ISO8601.',
    params: { code: 'DATE_TYPE_PARSE' },
  })
  .transform((value) => Date.parse(value));

/** A character that shows: not white space, not a format (zero-width) or control character. */
const VISIBLE = /[^\p{White_Space}\p{Cf}\p{Cc}]/u;

/**
 * The name of a guild, channel, role, expression or event: trimmed, `min`–`max` characters, no
 * control characters, and at least one visible character, so a name of only zero-width spaces
 * is refused as blank.
 */
export function DisplayName(min: number, max: number) {
  return z
    .string()
    .trim()
    .min(min)
    .max(max)
    .refine((name) => !/\p{Cc}/u.test(name), {
      message: 'Name cannot contain control characters.',
      params: { code: 'BASE_TYPE_INVALID' },
    })
    .refine((name) => name === '' || VISIBLE.test(name), {
      message: 'Name must contain a visible character.',
      params: { code: 'BASE_TYPE_BAD_LENGTH' },
    });
}

/** A non-negative integer that fits the 32-bit signed columns it is stored in (flags, positions). */
export const UInt31 = z
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1);
