import { z } from 'zod';

/**
 * The `components` field of a message body (create, edit, webhook execute, interaction
 * response): a list of component objects, loosely typed here so that
 * {@link validateMessageComponents} reports each rule with its precise 50035 path.
 */
export const componentsInput = z.array(z.record(z.string(), z.unknown())).nullable().optional();

/** The `components` of a message body as parsed. */
export type ComponentsInput = z.infer<typeof componentsInput>;
