import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BlobStore } from '../../blobs/index.js';
import { ApiError } from '../../errors/index.js';
import type { Storage } from '../../storage/index.js';
import { sendBlob } from '../images.js';
import type { Metrics } from './metrics.js';
import { checkReadiness, DEFAULT_READINESS_TIMEOUT_MS, type ReadinessCheck } from './readiness.js';

export interface SystemRouteOptions {
  storage: Storage;
  blobs: BlobStore;
  metrics: Metrics;
  /** What /readyz checks (app.ts: the database and the bus). */
  readiness: readonly ReadinessCheck[];
  readinessTimeoutMs?: number;
}

/** Probes answer whatever the rate limits: an orchestrator polls them from one address. */
const PROBE = { config: { auth: 'none', rateLimit: false } } as const;

const ImageParams = z.object({
  owner_id: z.string().regex(/^\d{1,20}$/),
  file: z.string().regex(/^(?:a_)?[0-9a-f]{32}\.(?:png|jpg|gif|webp)$/),
});

const GuildMemberImageParams = z.object({
  guild_id: ImageParams.shape.owner_id,
  user_id: ImageParams.shape.owner_id,
  kind: z.enum(['avatars', 'banners']),
  file: ImageParams.shape.file,
});

/** Health, metrics, and the image routes (the platform's CDN paths) outside /api. */
export function registerSystemRoutes(app: FastifyInstance, options: SystemRouteOptions): void {
  const { storage, blobs, metrics, readiness } = options;
  const timeoutMs = options.readinessTimeoutMs ?? DEFAULT_READINESS_TIMEOUT_MS;

  // Liveness: the process runs and its event loop answers; no dependency is asked.
  app.get('/livez', PROBE, () => ({ status: 'ok' }));

  // Readiness: every dependency answers; 503 names the ones that do not.
  app.get('/readyz', PROBE, async (request, reply) => {
    const report = await checkReadiness(readiness, {
      timeoutMs,
      onFailure: (check, err) => {
        request.log.error({ err, check }, 'readiness check failed');
      },
    });
    const body = {
      status: report.ready ? 'ok' : 'unavailable',
      checks: report.checks,
      ...(report.ready ? {} : { failed: report.failed }),
    };
    return reply.status(report.ready ? 200 : 503).send(body);
  });

  app.get('/healthz', PROBE, async (request, reply) => {
    try {
      await storage.ping();
      return { status: 'ok', storage: storage.dialect };
    } catch (err) {
      request.log.error({ err }, 'health check: storage unreachable');
      return reply.status(503).send({ status: 'unavailable', storage: storage.dialect });
    }
  });

  app.get('/metrics', { config: { auth: 'none' } }, async (_request, reply) =>
    reply.type(metrics.contentType).send(await metrics.render()),
  );

  // Guild icons, banners and splashes use these routes too, keyed by guild id.
  for (const kind of [
    'avatars',
    'banners',
    'app-icons',
    'role-icons',
    'icons',
    'splashes',
  ] as const) {
    app.get(`/${kind}/:owner_id/:file`, { config: { auth: 'none' } }, async (request, reply) => {
      const parsed = ImageParams.safeParse(request.params);
      if (!parsed.success) throw new ApiError('NOT_FOUND');
      return sendBlob(reply, blobs, `${kind}/${parsed.data.owner_id}/${parsed.data.file}`);
    });
  }

  // Guild member profiles, in the platform's path shape:
  // /guilds/{guild_id}/users/{user_id}/avatars|banners/{hash}.png (blobs guild-avatars|banners/).
  app.get(
    '/guilds/:guild_id/users/:user_id/:kind/:file',
    { config: { auth: 'none' } },
    async (request, reply) => {
      const parsed = GuildMemberImageParams.safeParse(request.params);
      if (!parsed.success) throw new ApiError('NOT_FOUND');
      const { guild_id, user_id, kind, file } = parsed.data;
      return sendBlob(reply, blobs, `guild-${kind}/${guild_id}/${user_id}/${file}`);
    },
  );
}
