import type { z } from 'zod';

/**
 * Parses a request's body, query or params once, at the boundary. The input is kept in the
 * issues so a 50035 can quote the bad value, as the platform's messages do.
 */
export function parseInput<TSchema extends z.ZodType>(
  schema: TSchema,
  value: unknown,
): z.output<TSchema> {
  return schema.parse(value, { reportInput: true });
}
