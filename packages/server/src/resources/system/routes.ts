import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { BlobStore } from '../../blobs/index.js';
import { ApiError } from '../../errors/index.js';
import type { Storage } from '../../storage/index.js';
import { sendBlob } from '../images.js';
import { checkMetricsAccess, type Metrics, type MetricsAccess } from './metrics.js';

export interface SystemRouteOptions {
  storage: Storage;
  blobs: BlobStore;
  metrics: Metrics;
  /**
   * Who may read /metrics (docs/operations.md); null: it is served on a listener of its own
   * (GUILDHALL_METRICS_LISTEN), not here.
   */
  metricsAccess: MetricsAccess | null;
}

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
  const { storage, blobs, metrics } = options;

  app.get('/healthz', { config: { auth: 'none' } }, async (request, reply) => {
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
