import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../errors/index.js';
import type { Storage } from '../../storage/index.js';
import { hashedImageKeys, IMAGE_EXTENSION, type CdnImages } from '../imageVariants.js';
import { checkMetricsAccess, type Metrics, type MetricsAccess } from './metrics.js';
import { checkReadiness, DEFAULT_READINESS_TIMEOUT_MS, type ReadinessCheck } from './readiness.js';
import { CDN_RATE_LIMIT } from '../../http/rateLimit/index.js';

export interface SystemRouteOptions {
  storage: Storage;
  images: CdnImages;
  metrics: Metrics;
  /**
   * Who may read /metrics (docs/operations.md); null: it is served on a listener of its own
   * (GUILDHALL_METRICS_LISTEN), not here.
   */
  metricsAccess: MetricsAccess | null;
  /** What /readyz checks (app.ts: the database and the bus). */
  readiness: readonly ReadinessCheck[];
  readinessTimeoutMs?: number;
}

/** Probes answer whatever the rate limits: an orchestrator polls them from one address. */
const PROBE = { config: { auth: 'none', rateLimit: false } } as const;

const ImageParams = z.object({
  owner_id: z.string().regex(/^\d{1,20}$/),
  file: z.string().regex(new RegExp(`^(?:a_)?[0-9a-f]{32}\\.(?:${IMAGE_EXTENSION})$`)),
});

/** The hash and extension of a hash-named image file (`{hash}.{ext}`). */
function splitFile(file: string): { hash: string; extension: string } {
  const dot = file.indexOf('.');
  return { hash: file.slice(0, dot), extension: file.slice(dot + 1) };
}

const GuildMemberImageParams = z.object({
  guild_id: ImageParams.shape.owner_id,
  user_id: ImageParams.shape.owner_id,
  kind: z.enum(['avatars', 'banners']),
  file: ImageParams.shape.file,
});

/** Health, metrics, and the image routes (the platform's CDN paths) outside /api. */
export function registerSystemRoutes(app: FastifyInstance, options: SystemRouteOptions): void {
  const { storage, images, metrics, readiness } = options;
  const timeoutMs = options.readinessTimeoutMs ?? DEFAULT_READINESS_TIMEOUT_MS;
  /** An image is served only while its owner's row still names it (never an orphan). */
  const requireOwner = async (keys: readonly string[]) => {
    if ((await storage.blobRefs.referenced(keys)).size === 0) throw new ApiError('NOT_FOUND');
  };

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

  const { metricsAccess } = options;
  if (metricsAccess !== null) {
    app.get('/metrics', { config: { auth: 'none' } }, async (request, reply) => {
      checkMetricsAccess(metricsAccess, request.headers.authorization);
      return reply.type(metrics.contentType).send(await metrics.render());
    });
  }

  // Guild icons, banners and splashes use these routes too, keyed by guild id.
  for (const kind of [
    'avatars',
    'banners',
    'app-icons',
    'role-icons',
    'icons',
    'splashes',
  ] as const) {
    app.get(
      `/${kind}/:owner_id/:file`,
      { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
      async (request, reply) => {
        const parsed = ImageParams.safeParse(request.params);
        if (!parsed.success) throw new ApiError('NOT_FOUND');
        const { hash, extension } = splitFile(parsed.data.file);
        const keys = hashedImageKeys(`${kind}/${parsed.data.owner_id}`, hash);
        await requireOwner(keys);
        return images.send(request, reply, {
          keys,
          animated: hash.startsWith('a_'),
          extension,
        });
      },
    );
  }

  // Guild member profiles, in the platform's path shape:
  // /guilds/{guild_id}/users/{user_id}/avatars|banners/{hash}.{ext} (blobs guild-avatars|banners/).
  app.get(
    '/guilds/:guild_id/users/:user_id/:kind/:file',
    { config: { auth: 'none', rateLimit: CDN_RATE_LIMIT } },
    async (request, reply) => {
      const parsed = GuildMemberImageParams.safeParse(request.params);
      if (!parsed.success) throw new ApiError('NOT_FOUND');
      const { guild_id, user_id, kind } = parsed.data;
      const { hash, extension } = splitFile(parsed.data.file);
      const keys = hashedImageKeys(`guild-${kind}/${guild_id}/${user_id}`, hash);
      await requireOwner(keys);
      return images.send(request, reply, {
        keys,
        animated: hash.startsWith('a_'),
        extension,
      });
    },
  );
}
