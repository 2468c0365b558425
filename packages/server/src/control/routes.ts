/**
 * @module control/routes: the controls over HTTP, under `/_guildhall/v1/` (docs/testing.md#http-
 * controls, described by `GET /_guildhall/v1/openapi.json`): the clock, the faults, tokens
 * expired or revoked, the log. JSON in and out, named as in process (camelCase); a bad input is
 * the platform's 50035, a caller not allowed its 401 (control/access.ts).
 */
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError, invalidField } from '../errors/index.js';
import { parseInput } from '../http/validate.js';
import { checkControlAccess, type ControlAccess } from './access.js';
import { ControlInputError } from './duration.js';
import { FaultSpecSchema } from './faultSpec.js';
import type { FaultSpec } from './types.js';
import type { ControlParts } from './index.js';
import { CONTROL_OPENAPI } from './openapi.js';

/** Where the controls live. */
export const CONTROL_BASE = '/_guildhall/v1';

/** The controls' routes answer whatever the platform's rate limits: a test drives them hard. */
const OPEN = { config: { auth: 'none', rateLimit: false } } as const;

const Moment = z.union([z.number(), z.string().max(64)]);
const FreezeBody = z.strictObject({ at: Moment.optional() }).optional();
const SetBody = z.strictObject({ to: Moment });
const AdvanceBody = z.strictObject({ by: z.union([z.number().min(0), z.string().max(64)]) });
const TokenBody = z.strictObject({ token: z.string().min(1).max(1024) });
const FaultParams = z.object({ id: z.string().regex(/^[0-9a-f]{1,32}$/) });
const LogQuery = z.strictObject({
  botId: z
    .string()
    .regex(/^\d{1,20}$/)
    .optional(),
  kind: z.enum(['http', 'gatewayCommand', 'dispatch']).optional(),
  since: z.coerce.number().int().min(0).optional(),
  limit: z.coerce.number().int().min(1).max(100_000).optional(),
});

/** A moment or duration the clock cannot read: 50035 on the field. */
async function readable<T>(field: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (err) {
    if (err instanceof ControlInputError)
      throw invalidField([field], 'CONTROL_INPUT_INVALID', err.message);
    throw err;
  }
}

export interface ControlRouteDeps {
  control: ControlParts;
  access: ControlAccess;
  /**
   * More routes under the same base and guard (worlds, reset, people): registered inside the
   * controls' scope.
   */
  extend?: ((scope: FastifyInstance) => void)[];
}

/** Registers the controls: call only when they are on (config `control`). */
export async function registerControlRoutes(
  http: FastifyInstance,
  deps: ControlRouteDeps,
): Promise<void> {
  const { control, access } = deps;
  const { clock, faults, log } = control;
  await http.register(
    (scope, _opts, done) => {
      scope.addHook('onRequest', (request, _reply, next) => {
        checkControlAccess(request, access);
        next();
      });
      scope.get('/openapi.json', OPEN, () => CONTROL_OPENAPI);

      scope.get('/clock', OPEN, () => clock.state());
      scope.post('/clock/freeze', OPEN, (request) => {
        const body = parseInput(FreezeBody, request.body ?? undefined);
        return readable('at', () => clock.freeze(body?.at));
      });
      scope.post('/clock/resume', OPEN, () => clock.resume());
      scope.post('/clock/restore', OPEN, () => clock.restore());
      scope.post('/clock/set', OPEN, (request) => {
        const { to } = parseInput(SetBody, request.body);
        return readable('to', () => clock.set(to));
      });
      scope.post('/clock/advance', OPEN, (request) => {
        const { by } = parseInput(AdvanceBody, request.body);
        return readable('by', () => clock.advance(by));
      });

      scope.get('/faults', OPEN, () => ({ faults: faults.list() }));
      scope.post('/faults', OPEN, async (request, reply) => {
        const spec: FaultSpec = parseInput(FaultSpecSchema, request.body);
        const fault = await readable('kind', () => Promise.resolve(faults.add(spec)));
        return reply.status(201).send(fault);
      });
      scope.get('/faults/:id', OPEN, (request) => {
        const found = faults.get(parseInput(FaultParams, request.params).id);
        if (found === undefined) throw new ApiError('NOT_FOUND');
        return found;
      });
      scope.delete('/faults/:id', OPEN, (request, reply) => {
        if (!faults.remove(parseInput(FaultParams, request.params).id)) {
          throw new ApiError('NOT_FOUND');
        }
        return reply.status(204).send();
      });
      scope.delete('/faults', OPEN, (_request, reply) => {
        faults.clear();
        return reply.status(204).send();
      });

      scope.post('/tokens/expire', OPEN, (request) => {
        const { token } = parseInput(TokenBody, request.body);
        return readable('token', () => faults.expireToken(token));
      });
      scope.post('/tokens/revoke', OPEN, (request) => {
        const { token } = parseInput(TokenBody, request.body);
        return readable('token', () => faults.revokeToken(token));
      });

      scope.get('/log', OPEN, (request) => {
        const query = parseInput(LogQuery, request.query);
        return {
          recording: control.recording,
          entries: log.entries({
            ...(query.botId === undefined ? {} : { botId: query.botId }),
            ...(query.kind === undefined ? {} : { kind: query.kind }),
            ...(query.since === undefined ? {} : { since: query.since }),
            ...(query.limit === undefined ? {} : { limit: query.limit }),
          }),
        };
      });
      scope.delete('/log', OPEN, (_request, reply) => {
        log.clear();
        return reply.status(204).send();
      });

      for (const more of deps.extend ?? []) more(scope);
      done();
    },
    { prefix: CONTROL_BASE },
  );
}
