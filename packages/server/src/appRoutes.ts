import type { FastifyInstance } from 'fastify';
import type { BlobStore } from './blobs/index.js';
import type { EventBus } from './bus/index.js';
import { roleServes, uploadLimitBytes, type Config } from './config.js';
import { APP_MODULES, type Services } from './appModules.js';
import { activityFrameSource } from './activities/proxyHost.js';
import type { Clock } from './domain/clock.js';
import { ApiError } from './errors/index.js';
import type { Authenticator } from './http/authenticator.js';
import { API_PREFIX } from './http/versioning.js';
import { registerWebApp } from './http/webApp.js';
import type { ProvisionalService } from './oauth/provisional/service.js';
import type { SessionStartLimit } from './resources/gatewayInfo/index.js';
import type { CdnImages } from './resources/imageVariants.js';
import type { AttachmentLinks } from './resources/messages/index.js';
import type { createMetrics } from './resources/system/index.js';
import type { Storage } from './storage/index.js';

/** What the routes are registered over (app.ts builds it all). */
export interface AppRouteDeps {
  config: Config;
  storage: Storage;
  bus: EventBus;
  blobs: BlobStore;
  clock: Clock;
  authenticator: Authenticator;
  services: Services;
  provisional: ProvisionalService;
  sessionStartLimit: SessionStartLimit;
  images: CdnImages;
  metrics: ReturnType<typeof createMetrics>;
  /** Whether /metrics has a listener of its own (then the main listener does not serve it). */
  metricsOwnListener: boolean;
  signer: AttachmentLinks['signer'];
  baseUrl: () => string;
  gatewayUrl: () => string;
}

/**
 * Registers every route: each module's root routes (health, the CDN's paths, OAuth2), its API
 * routes under the prefix (appModules.ts lists the modules), then the web pages.
 */
export async function registerAppRoutes(http: FastifyInstance, deps: AppRouteDeps): Promise<void> {
  const { config, storage, bus } = deps;
  const uploads = {
    maxAttachmentBytes: config.maxAttachmentBytes,
    maxUploadBytes: uploadLimitBytes(config),
    maxPayloadBytes: config.maxBodyBytes,
    blobs: deps.blobs,
  };
  // One context every module's routes take what they need from.
  const ctx = {
    ...deps,
    uploads,
    maxAttachmentBytes: config.maxAttachmentBytes,
    adminTokenHash: config.adminTokenHash,
    system: {
      storage,
      images: deps.images,
      metrics: deps.metrics,
      metricsAccess: deps.metricsOwnListener
        ? null
        : { tokenHash: config.metricsTokenHash, host: config.host },
      readiness: [
        { name: 'database', check: () => storage.ping() },
        { name: 'bus', check: () => bus.ping() },
      ],
    },
  };
  await APP_MODULES.registerRoot(http, ctx);
  // A gateway-only (or voice-only) process answers WebSocket upgrades and its health check; the
  // API is elsewhere.
  if (!roleServes(config.role, 'api')) {
    http.addHook('onRequest', (request, _reply, done) => {
      done(request.url.startsWith('/api') ? new ApiError('NOT_FOUND') : undefined);
    });
  }
  await http.register(
    (api, _opts, done) => {
      APP_MODULES.registerApi(api, ctx);
      done();
    },
    { prefix: API_PREFIX },
  );
  // The pages go where the API is: they call it on their own origin.
  if (roleServes(config.role, 'api')) {
    await registerWebApp(http, {
      webDir: config.webDir,
      gatewayUrl: deps.gatewayUrl,
      publicUrl: config.publicUrl,
      // The port the API is reached on (the listener's, or the public URL's).
      activityFrameSource: () =>
        activityFrameSource(config, Number(new URL(deps.baseUrl()).port || '80')),
    });
  }
}
