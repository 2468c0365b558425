/**
 * Validates HTTP responses against the platform's public OpenAPI 3.1 description (vendored in
 * `openapi/openapi.json` beside this file; its source and version are in `openapi/README.md`),
 * so route tests prove wire compatibility, not just our own shapes.
 *
 * @module
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** The result of one validation: `errors` is a list of readable messages. */
export type OpenApiValidationResult = { ok: true } | { ok: false; errors: string[] };

/** A response as the validator sees it. `path` is a concrete request path, not a template. */
export interface OpenApiResponseInput {
  method: string;
  path: string;
  status: number;
  body: unknown;
}

/** Checks responses against the document; get the shared instance from {@link getOpenApiValidator}. */
export interface OpenApiValidator {
  /**
   * Validates `body` (already parsed; `undefined` or `''` when empty) against the response the
   * operation declares for `status`: the exact code, then its `4XX`-style range, then `default`.
   */
  validateResponse(input: OpenApiResponseInput): OpenApiValidationResult;
  /** Whether `method path` (a concrete path, `/api/v10` prefix allowed) is a documented operation. */
  hasOperation(method: string, path: string): boolean;
}

/** The fields of an `app.inject()` response that {@link expectOpenApiResponse} reads. */
export interface InjectedResponse {
  method?: string;
  url?: string;
  statusCode: number;
  body: string;
  headers: Record<string, unknown>;
}

interface ResponseObject {
  $ref?: string;
  content?: Record<string, { schema?: unknown }>;
}

interface Operation {
  operationId?: string;
  responses?: Record<string, ResponseObject>;
}

interface OpenApiDocument {
  openapi: string;
  paths: Record<string, Record<string, unknown>>;
}

interface Route {
  template: string;
  /** `null` marks a `{param}` segment. */
  segments: (string | null)[];
  operations: Map<string, { operation: Operation; pointer: string }>;
}

/** Either a compiled body validator or the reason there is none. */
type BodyCheck =
  | { kind: 'json'; validate: ValidateFunction; schemaRef: string }
  | { kind: 'empty' }
  | { kind: 'unsupported'; mediaTypes: string[] };

const DOCUMENT_ID = 'openapi.json';
const HTTP_METHODS = new Set(['get', 'put', 'post', 'patch', 'delete', 'head', 'options', 'trace']);
/** The vendored document; `GUILDHALL_OPENAPI_PATH` may name another one (a newer snapshot). */
const DEFAULT_DOCUMENT_URL = new URL('./openapi/openapi.json', import.meta.url);
/** The document's `SnowflakeType` pattern, bounded to the 20 digits a uint64 can have. */
const SNOWFLAKE = /^(0|[1-9][0-9]{0,19})$/;

const escapePointer = (part: string): string =>
  encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'));

function resolvePointer(document: unknown, ref: string): unknown {
  if (!ref.startsWith('#/')) throw new TypeError(`Only local $refs are supported, got ${ref}`);
  let node = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (typeof node !== 'object' || node === null || !(key in node)) {
      throw new TypeError(`Unresolvable $ref ${ref}`);
    }
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

function loadDocument(): OpenApiDocument {
  const override = process.env['GUILDHALL_OPENAPI_PATH'];
  const file = override ?? fileURLToPath(DEFAULT_DOCUMENT_URL);
  if (!existsSync(file)) {
    throw new Error(
      `OpenAPI document not found at ${file}. Check GUILDHALL_OPENAPI_PATH, or unset it to use the vendored one.`,
    );
  }
  const document = JSON.parse(readFileSync(file, 'utf8')) as Partial<OpenApiDocument>;
  if (typeof document.openapi !== 'string' || !document.openapi.startsWith('3.1')) {
    throw new Error(`${file} is not an OpenAPI 3.1 document`);
  }
  if (typeof document.paths !== 'object') throw new Error(`${file} has no paths`);
  allowStringFieldErrorCodes(document as OpenApiDocument);
  allowEveryEntitlementType(document as OpenApiDocument);
  return document as OpenApiDocument;
}

/**
 * The first place we knowingly depart from the document: a field error's `code` inside `_errors`.
 * The document reuses its integer `Error` there, but the platform sends strings such as
 * `BASE_TYPE_REQUIRED` (docs/platform-notes.md#error-body; the platform's prose ranks above the
 * document), and discord.js reads them as strings. Every other part of the error body is checked
 * as written.
 */
function allowStringFieldErrorCodes(document: OpenApiDocument): void {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components
    ?.schemas;
  const inner = schemas?.['InnerErrors'] as
    { properties?: { _errors?: { items?: unknown } } } | undefined;
  const errors = inner?.properties?._errors;
  if (errors === undefined) throw new Error('OpenAPI document has no InnerErrors._errors schema');
  errors.items = {
    type: 'object',
    properties: { code: { type: 'string' }, message: { type: 'string' } },
    required: ['code', 'message'],
  };
}

/**
 * The second departure: the document's `EntitlementTypes` lists only 8 (APPLICATION_SUBSCRIPTION)
 * and 10, while the platform's entitlement reference lists 1–8 and sends 4
 * (TEST_MODE_PURCHASE) for test entitlements (docs/monetization.md#entitlement-types). The enum
 * is widened to those values; the rest of the entitlement is checked as written.
 */
function allowEveryEntitlementType(document: OpenApiDocument): void {
  const schemas = (document as { components?: { schemas?: Record<string, unknown> } }).components
    ?.schemas;
  if (schemas?.['EntitlementTypes'] === undefined) {
    throw new Error('OpenAPI document has no EntitlementTypes schema');
  }
  schemas['EntitlementTypes'] = { type: 'integer', enum: [1, 2, 3, 4, 5, 6, 7, 8, 10] };
}

function createAjv(document: OpenApiDocument): Ajv2020 {
  // strict: false lets Ajv ignore OpenAPI-only keywords; this document uses `x-discord-union`.
  const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
  addFormats.default(ajv, ['uri', 'date-time', 'int32', 'int64', 'double']);
  // Snowflakes are decimal strings (`SnowflakeType`); int64 is only ever on `type: integer`.
  ajv.addFormat('snowflake', { type: 'string', validate: (value) => SNOWFLAKE.test(value) });
  ajv.addFormat('nonce', { type: 'string', validate: () => true });
  // Registered whole so `#/components/...` refs resolve against it; schemas compile lazily.
  ajv.addSchema(document, DOCUMENT_ID);
  return ajv;
}

function buildRoutes(document: OpenApiDocument): Route[] {
  const routes: Route[] = [];
  for (const [template, item] of Object.entries(document.paths)) {
    const operations = new Map<string, { operation: Operation; pointer: string }>();
    for (const [method, operation] of Object.entries(item)) {
      if (!HTTP_METHODS.has(method)) continue;
      const pointer = `#/paths/${escapePointer(template)}/${method}`;
      operations.set(method, { operation: operation as Operation, pointer });
    }
    const segments = template
      .split('/')
      .slice(1)
      .map((segment) => (/^\{[^}]+\}$/.test(segment) ? null : segment));
    routes.push({ template, segments, operations });
  }
  // Literal segments win over `{param}` ones, compared left to right: `/users/@me` first.
  const rank = (route: Route): string => route.segments.map((s) => (s === null ? 1 : 0)).join('');
  return routes.sort((a, b) => (rank(a) < rank(b) ? -1 : rank(a) > rank(b) ? 1 : 0));
}

/** Strips the query string, the `/api` or `/api/v9`/`/api/v10` prefix and a trailing slash. */
function normalisePath(path: string): string[] {
  const bare = path.replace(/[?#].*$/, '').replace(/^\/api(\/v(9|10))?(?=\/|$)/, '');
  return bare
    .replace(/\/+$/, '')
    .split('/')
    .slice(1)
    .map((segment) => {
      try {
        return decodeURIComponent(segment);
      } catch {
        return segment;
      }
    });
}

function formatError(error: ErrorObject): string {
  const where = error.instancePath === '' ? '(root)' : error.instancePath;
  const params = JSON.stringify(error.params);
  return `${where} ${error.message ?? 'is invalid'} ${params} [${error.schemaPath}]`;
}

/** A validator of another OpenAPI 3.1 document (Guildhall's own controls, say). */
export function createOpenApiValidator(document: unknown): OpenApiValidator {
  return createValidator(document as OpenApiDocument);
}

function createValidator(document: OpenApiDocument): OpenApiValidator {
  const ajv = createAjv(document);
  const routes = buildRoutes(document);
  const checks = new Map<string, BodyCheck>();

  const findOperation = (method: string, path: string) => {
    const segments = normalisePath(path);
    const verb = method.toLowerCase();
    const route = routes.find(
      (candidate) =>
        candidate.operations.has(verb) &&
        candidate.segments.length === segments.length &&
        candidate.segments.every((s, i) => (s === null ? segments[i] !== '' : s === segments[i])),
    );
    const found = route?.operations.get(verb);
    return route && found ? { template: route.template, ...found } : undefined;
  };

  const bodyCheck = (responsePointer: string): BodyCheck => {
    let pointer = responsePointer;
    let response = resolvePointer(document, pointer) as ResponseObject;
    while (response.$ref !== undefined) {
      pointer = response.$ref;
      response = resolvePointer(document, pointer) as ResponseObject;
    }
    const cached = checks.get(pointer);
    if (cached) return cached;
    let check: BodyCheck;
    const content = response.content ?? {};
    const schema = content['application/json']?.schema;
    if (Object.keys(content).length === 0) check = { kind: 'empty' };
    else if (schema === undefined) {
      check = { kind: 'unsupported', mediaTypes: Object.keys(content) };
    } else {
      const validate = ajv.compile({
        $ref: `${DOCUMENT_ID}${pointer}/content/${escapePointer('application/json')}/schema`,
      });
      // Name the component when the schema is a bare $ref: it reads better than a path pointer.
      const ref = (schema as { $ref?: unknown }).$ref;
      const schemaRef =
        typeof ref === 'string' ? ref : `${pointer}/content/application~1json/schema`;
      check = { kind: 'json', validate, schemaRef };
    }
    checks.set(pointer, check);
    return check;
  };

  return {
    hasOperation: (method, path) => findOperation(method, path) !== undefined,
    validateResponse({ method, path, status, body }) {
      const found = findOperation(method, path);
      if (!found) {
        return {
          ok: false,
          errors: [`${method} ${path} is not described by the OpenAPI document`],
        };
      }
      const label = `${method.toUpperCase()} ${found.template} (${found.operation.operationId ?? '?'})`;
      const responses = found.operation.responses ?? {};
      const range = `${String(status).charAt(0)}XX`;
      const key = [String(status), range, range.toLowerCase(), 'default'].find(
        (k) => k in responses,
      );
      if (key === undefined) {
        const known = Object.keys(responses).join(', ');
        return {
          ok: false,
          errors: [`${label} does not describe status ${status} (only ${known})`],
        };
      }
      const check = bodyCheck(`${found.pointer}/responses/${key}`);
      if (check.kind === 'unsupported') {
        const types = check.mediaTypes.join(', ');
        return { ok: false, errors: [`${label} ${key} is not JSON (${types}); check it directly`] };
      }
      if (check.kind === 'empty') {
        return body === undefined || body === ''
          ? { ok: true }
          : { ok: false, errors: [`${label} ${key} must have an empty body`] };
      }
      if (body === undefined || body === '') {
        return { ok: false, errors: [`${label} ${key} must have a JSON body`] };
      }
      if (check.validate(body)) return { ok: true };
      const errors = (check.validate.errors ?? []).map(formatError);
      return {
        ok: false,
        errors: [`${label} ${key} does not match ${check.schemaRef}`, ...errors],
      };
    },
  };
}

let cached: OpenApiValidator | undefined;

/** The process-wide validator; the 1 MB document is read once, schemas compile on first use. */
export function getOpenApiValidator(): OpenApiValidator {
  cached ??= createValidator(loadDocument());
  return cached;
}

function contentType(headers: Record<string, unknown>): string {
  const value = Object.entries(headers).find(
    ([name]) => name.toLowerCase() === 'content-type',
  )?.[1];
  return typeof value === 'string' ? value : '';
}

/**
 * Asserts that an injected response matches the operation `method path` of the OpenAPI document.
 * Throws when the operation is not described, so a test can never validate nothing.
 */
export function expectOpenApiResponse(res: InjectedResponse, method: string, path: string): void {
  const validator = getOpenApiValidator();
  const request = `${method.toUpperCase()} ${path} → ${res.statusCode}`;
  const fail = (reasons: string[]): never => {
    const body = res.body.length > 4000 ? `${res.body.slice(0, 4000)}…` : res.body;
    throw new Error(
      `${request} breaks the OpenAPI contract:\n  - ${reasons.join('\n  - ')}\nbody: ${body}`,
    );
  };
  if (!validator.hasOperation(method, path)) {
    fail([`${method.toUpperCase()} ${path} is not described by the OpenAPI document`]);
  }
  let body: unknown;
  if (res.body !== '') {
    try {
      body = JSON.parse(res.body);
    } catch {
      fail(['the body is not JSON']);
    }
    const type = contentType(res.headers);
    // discord.js only parses a body as JSON when the content type says so.
    if (!type.startsWith('application/json')) {
      fail([`content-type is "${type}", expected application/json`]);
    }
  }
  const result = validator.validateResponse({ method, path, status: res.statusCode, body });
  if (!result.ok) fail(result.errors);
}
