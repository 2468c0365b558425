import { isSnowflake } from '@guildhall/protocol';
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

/** A query-string boolean: true/True/1 and false/False/0 (api-facts §1). */
export const QueryBoolean = z
  .enum(['true', 'True', '1', 'false', 'False', '0'])
  .transform((value) => value === 'true' || value === 'True' || value === '1');

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
  return reason.replace(/\p{Cc}/gu, ' ').slice(0, 512);
}
