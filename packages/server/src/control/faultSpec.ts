/**
 * @module control/faultSpec: the one schema of a fault, which `faults.add` checks in process and
 * the HTTP controls check at their edge.
 */
import { z } from 'zod';
import { ControlInputError } from './duration.js';
import type { FaultSpec } from './types.js';

/** The longest latency or dispatch delay a fault may add (a test's hang stays bounded). */
export const MAX_FAULT_DELAY_MS = 10 * 60 * 1000;

const scope = {
  botId: z
    .string()
    .regex(/^\d{1,20}$/, 'a user or application id')
    .optional(),
  times: z.number().int().min(1).optional(),
};
const delayMs = z.number().int().min(0).max(MAX_FAULT_DELAY_MS);
const eventNames = z.array(z.string().regex(/^[A-Z_]{1,64}$/, 'a dispatch name')).optional();

const http = {
  kind: z.literal('http'),
  ...scope,
  method: z
    .string()
    .regex(/^[A-Za-z]{1,10}$/)
    .transform((m) => m.toUpperCase())
    .optional(),
  path: z.string().regex(/^\/[\w\-.*~:@/]*$/, "a path such as '/channels/*/messages'"),
};
const gateway = {
  kind: z.literal('gateway'),
  ...scope,
  sessionId: z.string().min(1).max(64).optional(),
  on: z.enum(['now', 'identify', 'resume']).optional(),
};
const delivery = {
  kind: z.literal('delivery'),
  ...scope,
  target: z.enum(['interactions', 'webhookEvents']),
};

export const FaultSpecSchema = z.union([
  z.strictObject({
    ...http,
    type: z.literal('rateLimit'),
    retryAfter: z.number().min(0).max(3600).optional(),
    scope: z.enum(['user', 'global', 'shared']).optional(),
    bucket: z
      .string()
      .regex(/^\w{1,64}$/)
      .optional(),
  }),
  z.strictObject({
    ...http,
    type: z.literal('serverError'),
    status: z.number().int().min(500).max(599).optional(),
    body: z.unknown().optional(),
  }),
  z.strictObject({ ...http, type: z.literal('latency'), ms: delayMs }),
  z.strictObject({ ...http, type: z.literal('drop') }),
  z.strictObject({ ...gateway, type: z.literal('reconnect') }),
  z.strictObject({ ...gateway, type: z.literal('invalidSession'), resumable: z.boolean() }),
  z.strictObject({
    ...gateway,
    type: z.literal('close'),
    code: z
      .number()
      .int()
      .refine(
        (c) =>
          (c >= 1000 && c <= 1011 && c !== 1004 && c !== 1005 && c !== 1006) ||
          (c >= 3000 && c <= 4999),
        'a close code a connection may send (1000–1011 but 1004–1006, or 3000–4999)',
      ),
    reason: z.string().max(120).optional(),
  }),
  z.strictObject({ ...gateway, type: z.literal('ignoreHeartbeats') }),
  z.strictObject({
    ...gateway,
    type: z.literal('delayDispatches'),
    ms: delayMs,
    events: eventNames,
  }),
  z.strictObject({ ...gateway, type: z.literal('dropDispatches'), events: eventNames }),
  z.strictObject({
    ...delivery,
    failure: z.literal('timeout'),
  }),
  z.strictObject({
    ...delivery,
    failure: z.literal('status'),
    status: z.number().int().min(400).max(599).optional(),
  }),
]);

/** Throws ControlInputError, naming what is wrong, unless `spec` is a fault. */
export function checkFaultSpec(spec: unknown): FaultSpec {
  const parsed = FaultSpecSchema.safeParse(spec);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.join('.') ?? '';
    throw new ControlInputError(
      `not a fault${where === '' ? '' : ` (${where})`}: ${issue?.message ?? 'invalid'}; see docs/testing.md#faults`,
    );
  }
  const fault = parsed.data;
  if (fault.kind === 'gateway' && (fault.on ?? 'now') !== 'now') {
    if (!(
      fault.type === 'reconnect' ||
      fault.type === 'invalidSession' ||
      fault.type === 'close'
    )) {
      throw new ControlInputError(
        `a ${fault.type} fault acts on live sessions: 'on' is for reconnect, invalidSession and close`,
      );
    }
  }
  return fault;
}
