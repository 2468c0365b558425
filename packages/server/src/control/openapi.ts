/**
 * @module control/openapi: the OpenAPI 3.1 document of the controls, served at
 * `GET /_guildhall/v1/openapi.json` and committed as docs/testing-control.openapi.json (a test
 * keeps the two equal).
 */

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });
const ok = (description: string, schema: unknown) => ({ description, ...json(schema) });
const body = (schema: unknown, required = true) => ({ required, ...json(schema) });
const ERRORS = {
  '400': ok('The input is not valid (50035, with the field that is not).', ref('Error')),
  '401': ok('Neither from this machine nor with a token.', ref('Error')),
};
const op = (
  operationId: string,
  summary: string,
  spec: { responses: Record<string, unknown>; requestBody?: unknown; parameters?: unknown },
) => ({ operationId, summary, ...spec, responses: { ...spec.responses, ...ERRORS } });
const clockOp = (operationId: string, summary: string, requestBody?: unknown) =>
  op(operationId, summary, {
    responses: { '200': ok('Where the clock stands now.', ref('ClockState')) },
    ...(requestBody ? { requestBody } : {}),
  });

const scope = {
  botId: {
    type: 'string',
    pattern: '^\\d{1,20}$',
    description: 'Only this bot (user or application id).',
  },
  times: {
    type: 'integer',
    minimum: 1,
    description: 'Fires at most this many times, then is gone.',
  },
};
const httpMatch = {
  kind: { const: 'http' },
  method: { type: 'string', description: 'GET, POST, …; absent: any.' },
  path: { type: 'string', description: "After the API prefix: '*' one segment, '**' any." },
};
const gatewayMatch = {
  kind: { const: 'gateway' },
  sessionId: { type: 'string' },
  on: {
    enum: ['now', 'identify', 'resume'],
    description: 'reconnect, invalidSession and close only.',
  },
};
const variant = (
  base: Record<string, unknown>,
  own: Record<string, unknown>,
  required: string[],
) => ({
  type: 'object',
  properties: { ...scope, ...base, ...own },
  required: ['kind', ...required],
});

const FaultSpec = {
  oneOf: [
    variant(
      httpMatch,
      {
        type: { const: 'rateLimit' },
        retryAfter: { type: 'number' },
        scope: { enum: ['user', 'global', 'shared'] },
        bucket: { type: 'string' },
      },
      ['path', 'type'],
    ),
    variant(
      httpMatch,
      {
        type: { const: 'serverError' },
        status: { type: 'integer', minimum: 500, maximum: 599 },
        body: {},
      },
      ['path', 'type'],
    ),
    variant(httpMatch, { type: { const: 'latency' }, ms: { type: 'integer', minimum: 0 } }, [
      'path',
      'type',
      'ms',
    ]),
    variant(httpMatch, { type: { const: 'drop' } }, ['path', 'type']),
    variant(gatewayMatch, { type: { const: 'reconnect' } }, ['type']),
    variant(gatewayMatch, { type: { const: 'invalidSession' }, resumable: { type: 'boolean' } }, [
      'type',
      'resumable',
    ]),
    variant(
      gatewayMatch,
      { type: { const: 'close' }, code: { type: 'integer' }, reason: { type: 'string' } },
      ['type', 'code'],
    ),
    variant(gatewayMatch, { type: { const: 'ignoreHeartbeats' } }, ['type']),
    variant(
      gatewayMatch,
      {
        type: { const: 'delayDispatches' },
        ms: { type: 'integer' },
        events: { type: 'array', items: { type: 'string' } },
      },
      ['type', 'ms'],
    ),
    variant(
      gatewayMatch,
      { type: { const: 'dropDispatches' }, events: { type: 'array', items: { type: 'string' } } },
      ['type'],
    ),
    variant(
      { kind: { const: 'delivery' }, target: { enum: ['interactions', 'webhookEvents'] } },
      { failure: { enum: ['timeout', 'status'] }, status: { type: 'integer' } },
      ['target', 'failure'],
    ),
  ],
};

const LogEntry = {
  type: 'object',
  required: ['seq', 'atMs', 'userId', 'applicationId', 'kind'],
  properties: {
    seq: { type: 'integer' },
    atMs: { type: 'number' },
    userId: { type: ['string', 'null'] },
    applicationId: { type: ['string', 'null'] },
    kind: { enum: ['http', 'gatewayCommand', 'dispatch'] },
    method: { type: 'string' },
    path: { type: 'string' },
    route: { type: ['string', 'null'] },
    status: { type: 'integer' },
    request: {},
    response: {},
    faultId: { type: 'string' },
    sessionId: { type: ['string', 'null'] },
    op: { type: 'integer' },
    d: {},
    t: { type: 'string' },
    s: { type: 'integer' },
  },
};

export const CONTROL_OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'Guildhall test controls',
    version: '1',
    description:
      'The clock, faults and log of a running Guildhall, for tests in any language (docs/testing.md). Served to clients on the same machine, or with `Authorization: Admin <GUILDHALL_ADMIN_TOKEN>`.',
  },
  servers: [{ url: '/_guildhall/v1' }],
  paths: {
    '/openapi.json': {
      get: op('getOpenApi', 'This document.', {
        responses: { '200': ok('The document.', { type: 'object' }) },
      }),
    },
    '/clock': { get: clockOp('getClock', 'Where the platform clock stands.') },
    '/clock/freeze': {
      post: clockOp(
        'freezeClock',
        'Stop the clock (at `at`, else where it stands).',
        body({ type: 'object', properties: { at: ref('Moment') } }, false),
      ),
    },
    '/clock/resume': {
      post: clockOp('resumeClock', 'Let the clock run again from where it stands.'),
    },
    '/clock/restore': { post: clockOp('restoreClock', 'Back to the real time, running.') },
    '/clock/set': {
      post: clockOp(
        'setClock',
        'Put the clock at `to`; waits now due fire.',
        body({ type: 'object', required: ['to'], properties: { to: ref('Moment') } }),
      ),
    },
    '/clock/advance': {
      post: clockOp(
        'advanceClock',
        'Move the clock forward by `by`; waits now due fire.',
        body({ type: 'object', required: ['by'], properties: { by: ref('Duration') } }),
      ),
    },
    '/faults': {
      get: op('listFaults', 'The faults in force, with how many times each fired.', {
        responses: {
          '200': ok('The faults.', {
            type: 'object',
            required: ['faults'],
            properties: { faults: { type: 'array', items: ref('Fault') } },
          }),
        },
      }),
      post: op('addFault', 'Put a fault in force.', {
        responses: { '201': ok('The fault, with its id.', ref('Fault')) },
        requestBody: body(ref('FaultSpec')),
      }),
      delete: op('clearFaults', 'Remove every fault.', {
        responses: { '204': { description: 'Removed.' } },
      }),
    },
    '/faults/{id}': {
      parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
      get: op('getFault', 'One fault.', {
        responses: {
          '200': ok('The fault.', ref('Fault')),
          '404': ok('No such fault (removed or spent).', ref('Error')),
        },
      }),
      delete: op('removeFault', 'Remove one fault.', {
        responses: {
          '204': { description: 'Removed.' },
          '404': ok('No such fault.', ref('Error')),
        },
      }),
    },
    '/tokens/expire': {
      post: op('expireToken', 'Make a token expire now (a bot token is revoked).', {
        responses: { '200': ok('What was done.', ref('TokenFaultResult')) },
        requestBody: body(ref('TokenBody')),
      }),
    },
    '/tokens/revoke': {
      post: op('revokeToken', 'Revoke a token now.', {
        responses: { '200': ok('What was done.', ref('TokenFaultResult')) },
        requestBody: body(ref('TokenBody')),
      }),
    },
    '/log': {
      get: op(
        'getLog',
        'What each bot did and was sent: HTTP requests, gateway commands, dispatches.',
        {
          responses: {
            '200': ok('The entries kept, oldest first.', {
              type: 'object',
              required: ['recording', 'entries'],
              properties: {
                recording: { type: 'boolean' },
                entries: { type: 'array', items: ref('LogEntry') },
              },
            }),
          },
          parameters: [
            { name: 'botId', in: 'query', schema: { type: 'string' } },
            { name: 'kind', in: 'query', schema: { enum: ['http', 'gatewayCommand', 'dispatch'] } },
            {
              name: 'since',
              in: 'query',
              schema: { type: 'integer' },
              description: 'Entries after this seq.',
            },
            { name: 'limit', in: 'query', schema: { type: 'integer' } },
          ],
        },
      ),
      delete: op('clearLog', 'Forget every entry.', {
        responses: { '204': { description: 'Cleared.' } },
      }),
    },
    '/worlds': {
      get: op('listWorlds', 'The worlds loaded and not undone by a reset.', {
        responses: {
          '200': ok('The worlds, oldest first.', {
            type: 'object',
            required: ['worlds'],
            properties: { worlds: { type: 'array', items: ref('LoadedWorld') } },
          }),
        },
      }),
      post: op(
        'loadWorld',
        'Load a world (JSON, or YAML with Content-Type: application/yaml); the state after it is the point reset returns to.',
        {
          responses: {
            '201': ok('Its ids and tokens, by the names in the world.', ref('LoadedWorld')),
          },
          parameters: [{ name: 'seed', in: 'query', schema: { type: 'string' } }],
          requestBody: body({ type: 'object', description: 'A world file (world.schema.json).' }),
        },
      ),
    },
    '/mark': {
      post: op('markWorld', 'Make the state now the point reset returns to.', {
        responses: { '204': { description: 'Marked.' } },
      }),
    },
    '/reset': {
      post: op(
        'reset',
        'Return to the last world loaded (or mark); faults removed, clock restored, log cleared.',
        { responses: { '204': { description: 'Reset.' } } },
      ),
    },
    '/admin/commands': {
      post: op(
        'runAdminCommand',
        'Run a `guildhall` operator command in this server (what the CLI does when a server runs on its data folder). Needs a token.',
        {
          responses: {
            '200': ok('What the command printed.', {
              type: 'object',
              required: ['result'],
              properties: { result: {} },
            }),
          },
          requestBody: body({
            type: 'object',
            required: ['command', 'flags'],
            properties: {
              command: { type: 'string' },
              flags: { type: 'object', additionalProperties: { type: 'string' } },
              stdin: { type: 'string' },
            },
          }),
        },
      ),
    },
  },
  components: {
    schemas: {
      Moment: {
        oneOf: [
          { type: 'number', description: 'Epoch ms.' },
          { type: 'string', description: 'ISO 8601.' },
        ],
      },
      Duration: {
        oneOf: [
          { type: 'number', minimum: 0, description: 'ms.' },
          { type: 'string', description: "'15m', '1h30m', '2d', '250ms'." },
        ],
      },
      ClockState: {
        type: 'object',
        required: ['nowMs', 'now', 'frozen', 'offsetMs'],
        properties: {
          nowMs: { type: 'number' },
          now: { type: 'string' },
          frozen: { type: 'boolean' },
          offsetMs: { type: 'number' },
        },
      },
      FaultSpec,
      Fault: {
        allOf: [
          ref('FaultSpec'),
          {
            type: 'object',
            required: ['id', 'fired', 'createdAtMs'],
            properties: {
              id: { type: 'string' },
              fired: { type: 'integer' },
              createdAtMs: { type: 'number' },
            },
          },
        ],
      },
      TokenBody: { type: 'object', required: ['token'], properties: { token: { type: 'string' } } },
      TokenFaultResult: {
        type: 'object',
        required: ['kind', 'outcome'],
        properties: {
          kind: { enum: ['bot', 'bearer', 'session', 'interaction'] },
          outcome: { enum: ['expired', 'revoked'] },
        },
      },
      LogEntry,
      LoadedWorld: {
        type: 'object',
        required: ['seed', 'people', 'applications', 'guilds', 'lobbies'],
        properties: {
          seed: { type: 'string' },
          people: { type: 'object' },
          applications: { type: 'object' },
          guilds: { type: 'object' },
          lobbies: { type: 'object' },
        },
      },
      Error: {
        type: 'object',
        required: ['code', 'message'],
        properties: {
          code: { type: 'integer' },
          message: { type: 'string' },
          errors: { type: 'object' },
        },
      },
    },
  },
} as const;
