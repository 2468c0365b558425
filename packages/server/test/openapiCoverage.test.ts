/**
 * Every operation of the vendored OpenAPI document has a route (issue 18's "done when"). An
 * operation without one answers the generic unknown-route 404 (`{"message": "404: Not Found",
 * "code": 0}`, docs/platform-notes.md); any route of ours answers something else (its auth
 * check, its own error codes or a success), whatever ids the path carries. The test lists every
 * operation without a route, and fails on any.
 *
 * @module
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/testServer.js';

const DOCUMENT = fileURLToPath(new URL('./support/openapi/openapi.json', import.meta.url));
const METHODS = ['get', 'put', 'post', 'patch', 'delete'] as const;

interface Operation {
  operationId: string;
  method: string;
  path: string;
}

function operations(): Operation[] {
  const doc = JSON.parse(readFileSync(DOCUMENT, 'utf8')) as {
    paths: Record<string, Partial<Record<string, { operationId: string }>>>;
  };
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = item[method];
      if (operation !== undefined) {
        out.push({ operationId: operation.operationId, method: method.toUpperCase(), path });
      }
    }
  }
  return out;
}

/** The path with a plausible value in each parameter (a snowflake, or a code for codes). */
function concrete(path: string): string {
  return path.replace(/\{([^}]+)\}/g, (_match, name: string) =>
    name === 'code' || name === 'instance_id' ? 'abc123' : '1234567890123456789',
  );
}

describe('OpenAPI coverage: every documented operation has a route', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ storage: 'sqlite' });
  });
  afterAll(async () => {
    await server.close();
  });

  it('lists the operations without a route: none', async () => {
    const all = operations();
    expect(all.length).toBe(242);
    const missing: string[] = [];
    for (const op of all) {
      const res = await server.app.http.inject({
        method: op.method as 'GET',
        url: `/api/v10${concrete(op.path)}`,
        ...(op.method === 'GET' || op.method === 'DELETE' ? {} : { payload: {} }),
      });
      const unknownRoute =
        res.statusCode === 404 && (res.json<{ code?: unknown }>().code ?? null) === 0;
      if (unknownRoute) missing.push(`${op.operationId} (${op.method} ${op.path})`);
    }
    expect(missing).toEqual([]);
  });
});
