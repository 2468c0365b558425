/**
 * @module control/routesWorlds: worlds and reset over HTTP, under the controls' base and guard
 * (control/routes.ts): load a world (JSON, or YAML with `Content-Type: application/yaml`), list
 * what is loaded, mark the point a reset returns to, reset.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { invalidField } from '../errors/index.js';
import { parseInput } from '../http/validate.js';
import { SnapshotUnsupportedError } from './reset.js';
import { WorldError, parseWorld } from './worldFile.js';
import type { WorldState } from './worldTypes.js';

const OPEN = { config: { auth: 'none', rateLimit: false } } as const;
const LoadQuery = z.strictObject({ seed: z.string().min(1).max(200).optional() });

/** The world routes, for `registerControlRoutes`' `extend`. */
export function worldRoutes(worlds: () => WorldState): (scope: FastifyInstance) => void {
  return (scope) => {
    // YAML worlds as curl sends a file: `--data-binary @world.yaml`.
    scope.addContentTypeParser(
      ['application/yaml', 'application/x-yaml', 'text/yaml'],
      { parseAs: 'string' },
      async (_request: FastifyRequest, body: string) => {
        // The YAML parser is loaded with the first YAML world: a start that gets none skips it.
        const { parse } = (await import('yaml')).default;
        try {
          return parse(body) as unknown;
        } catch (err) {
          throw invalidField(['world'], 'WORLD_INVALID', `not YAML: ${(err as Error).message}`);
        }
      },
    );

    scope.get('/worlds', OPEN, () => ({ worlds: worlds().loaded() }));
    scope.post('/worlds', OPEN, async (request, reply) => {
      const { seed } = parseInput(LoadQuery, request.query);
      try {
        const world = parseWorld(request.body, 'the request body');
        let loaded: unknown = null;
        await guarded(async () => {
          loaded = await worlds().load(world, seed === undefined ? {} : { seed });
        });
        return await reply.status(201).send(loaded);
      } catch (err) {
        if (err instanceof WorldError) throw invalidField(['world'], 'WORLD_INVALID', err.message);
        throw err;
      }
    });
    scope.post('/mark', OPEN, async (_request, reply) => {
      await guarded(() => worlds().mark());
      return reply.status(204).send();
    });
    scope.post('/reset', OPEN, async (_request, reply) => {
      await guarded(() => worlds().reset());
      return reply.status(204).send();
    });
  };
}

/** A server that cannot take or return to a point (PostgreSQL, Redis): 50035 saying so. */
async function guarded(work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (err) {
    if (err instanceof SnapshotUnsupportedError) {
      throw invalidField(['reset'], 'RESET_UNSUPPORTED', err.message);
    }
    throw err;
  }
}
