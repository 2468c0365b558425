import type { FastifyInstance } from 'fastify';
import type { BlobStore } from './blobs/index.js';
import type { EventBus } from './bus/index.js';
import { roleServes, uploadLimitBytes, type Config } from './config.js';
import type { Services } from './appServices.js';
import { registerActivityRoutes } from './activities/index.js';
import { registerActivityShelfRoutes } from './activities/launchable.js';
import { activityFrameSource } from './activities/proxyHost.js';
import { registerWebhookEventRoutes } from './delivery/routes.js';
import type { Clock } from './domain/clock.js';
import { ApiError } from './errors/index.js';
import type { Authenticator } from './http/authenticator.js';
import { API_PREFIX } from './http/versioning.js';
import { registerWebApp } from './http/webApp.js';
import { registerOAuthRoutes } from './oauth/index.js';
import {
  registerProvisionalAdminRoutes,
  registerProvisionalRoutes,
} from './oauth/provisional/routes.js';
import type { ProvisionalService } from './oauth/provisional/service.js';
import {
  registerApplicationRoutes,
  registerAssetCdnRoutes,
} from './resources/applications/index.js';
import { registerAuditLogRoutes } from './resources/auditLog/index.js';
import { registerAuthRoutes } from './resources/auth/index.js';
import { registerAutoModerationRoutes } from './resources/autoModeration/index.js';
import { registerBanRoutes } from './resources/bans/index.js';
import { registerChannelRoutes } from './resources/channels/index.js';
import { registerThreadRoutes } from './resources/threads/index.js';
import { registerPollRoutes } from './resources/polls/index.js';
import { registerAnnouncementRoutes } from './resources/announcements/index.js';
import { registerConnectionRoutes } from './resources/connections/index.js';
import { registerActivityInviteRoutes } from './resources/activityInvites/index.js';
import { registerRelationshipRoutes } from './resources/relationships/index.js';
import { registerGameStatsRoutes } from './resources/gameStats/index.js';
import { registerGuildTagRoutes } from './resources/guildTags/index.js';
import { registerMonetizationRoutes } from './resources/monetization/index.js';
import { registerDmRoutes } from './resources/dms/index.js';
import { registerEmojiCdnRoutes, registerEmojiRoutes } from './resources/emojis/index.js';
import { registerGatewayRoutes, type SessionStartLimit } from './resources/gatewayInfo/index.js';
import { registerGuildRoutes } from './resources/guilds/index.js';
import { registerGuildSettingsRoutes } from './resources/guildSettings/index.js';
import { registerGuildTemplateRoutes } from './resources/guildTemplates/index.js';
import type { CdnImages } from './resources/imageVariants.js';
import { registerInviteRoutes } from './resources/invites/index.js';
import { registerLobbyRoutes } from './resources/lobbies/index.js';
import { registerMemberRoutes } from './resources/members/index.js';
import {
  registerAttachmentCdnRoutes,
  registerMessageRoutes,
  type AttachmentLinks,
} from './resources/messages/index.js';
import { registerRoleRoutes } from './resources/roles/index.js';
import {
  registerScheduledEventCdnRoutes,
  registerScheduledEventRoutes,
} from './resources/scheduledEvents/index.js';
import { registerMessageSearchRoutes } from './resources/search/index.js';
import { registerSocialApprovalRoutes } from './resources/socialLimits/index.js';
import { registerStickerCdnRoutes, registerStickerRoutes } from './resources/stickers/index.js';
import {
  registerSoundboardCdnRoutes,
  registerSoundboardRoutes,
} from './resources/soundboard/index.js';
import { registerVoiceRoutes } from './resources/voice/index.js';
import { registerCallRoutes } from './resources/calls/index.js';
import {
  registerAppAttachmentCdnRoutes,
  registerAppDataRoutes,
} from './resources/appData/index.js';
import { registerSystemRoutes, type createMetrics } from './resources/system/index.js';
import { registerUserRoutes } from './resources/users/index.js';
import { registerInteractionCallbackRoutes } from './resources/interactions/index.js';
import type { Storage } from './storage/index.js';
import { registerCommandRoutes } from './resources/commands/index.js';
import { registerWebhookRoutes } from './resources/webhooks/index.js';
import {
  registerInteractionAttachmentRoutes,
  registerInteractionRoutes,
} from './resources/interactions/index.js';

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

/** Registers every route: system and CDN at the root, the API under its prefix, then OAuth2. */
export async function registerAppRoutes(http: FastifyInstance, deps: AppRouteDeps): Promise<void> {
  const { config, storage, bus, blobs, services, provisional, images, metrics, signer } = deps;
  const { sessionStartLimit, gatewayUrl } = deps;
  registerSystemRoutes(http, {
    storage,
    images,
    metrics,
    metricsAccess: deps.metricsOwnListener
      ? null
      : { tokenHash: config.metricsTokenHash, host: config.host },
    readiness: [
      { name: 'database', check: () => storage.ping() },
      { name: 'bus', check: () => bus.ping() },
    ],
  });
  registerEmojiCdnRoutes(http, { storage, images });
  registerAssetCdnRoutes(http, { storage, images });
  registerStickerCdnRoutes(http, { storage, blobs });
  registerSoundboardCdnRoutes(http, { storage, blobs });
  registerAppAttachmentCdnRoutes(http, { storage, blobs, signer });
  registerScheduledEventCdnRoutes(http, { storage, images });
  registerAttachmentCdnRoutes(http, { storage, blobs, signer });
  registerInteractionAttachmentRoutes(http, { storage, blobs, signer });
  // A gateway-only (or voice-only) process answers WebSocket upgrades and its health check; the
  // API is elsewhere.
  if (!roleServes(config.role, 'api')) {
    http.addHook('onRequest', (request, _reply, done) => {
      done(request.url.startsWith('/api') ? new ApiError('NOT_FOUND') : undefined);
    });
  }
  await http.register(
    (api, _opts, done) => {
      registerUserRoutes(api, services.users);
      registerApplicationRoutes(api, services.applications);
      registerAuthRoutes(api, services.auth, {
        baseUrl: deps.baseUrl,
        authenticator: deps.authenticator,
      });
      registerGatewayRoutes(api, { storage, sessionStartLimit, gatewayUrl });
      registerAuditLogRoutes(api, services.auditLog);
      registerGuildRoutes(api, services, { storage, blobs });
      registerChannelRoutes(api, { ...services, positions: services.channelPositions });
      registerDmRoutes(api, services);
      registerRoleRoutes(api, services.roles);
      registerMemberRoutes(api, services);
      registerBanRoutes(api, services.bans);
      registerEmojiRoutes(api, services.emojis);
      registerStickerRoutes(api, services.stickers);
      registerScheduledEventRoutes(api, services.scheduledEvents);
      registerVoiceRoutes(api, { storage, clock: deps.clock, ...services.voice });
      registerCallRoutes(api, services.calls);
      registerSoundboardRoutes(api, services.soundboard);
      registerAppDataRoutes(api, services.appData, {
        maxAttachmentBytes: config.maxAttachmentBytes,
      });
      registerInviteRoutes(api, services.invites);
      registerConnectionRoutes(api, services.connections);
      registerGameStatsRoutes(api, services.gameStats);
      registerGuildTagRoutes(api, services.guildTags);
      registerMonetizationRoutes(api, services);
      registerActivityInviteRoutes(api, services.activityInvites);
      registerActivityShelfRoutes(api, { storage, clock: deps.clock });
      registerProvisionalRoutes(api, provisional);
      registerProvisionalAdminRoutes(api, { provisional, adminTokenHash: config.adminTokenHash });
      registerSocialApprovalRoutes(api, { storage, adminTokenHash: config.adminTokenHash });
      registerWebhookEventRoutes(api, services.webhookEvents);
      registerMessageSearchRoutes(api, services.messageSearch);
      registerLobbyRoutes(api, services.lobbies);
      registerMessageRoutes(api, services, {
        maxAttachmentBytes: config.maxAttachmentBytes,
        maxUploadBytes: uploadLimitBytes(config),
        maxPayloadBytes: config.maxBodyBytes,
        blobs,
      });
      registerRelationshipRoutes(api, services.relationships);
      registerThreadRoutes(api, services);
      registerPollRoutes(api, services.polls);
      registerAnnouncementRoutes(api, services.announcements);
      registerCommandRoutes(api, services.commands);
      registerActivityRoutes(api, {
        config: services.activityConfig,
        instances: services.activityInstances,
      });
      registerInteractionCallbackRoutes(api, services.interactionResponses, {
        maxAttachmentBytes: config.maxAttachmentBytes,
        maxUploadBytes: uploadLimitBytes(config),
        maxPayloadBytes: config.maxBodyBytes,
        blobs,
      });
      registerInteractionRoutes(api, services.interactions, {
        maxAttachmentBytes: config.maxAttachmentBytes,
        maxUploadBytes: uploadLimitBytes(config),
        maxPayloadBytes: config.maxBodyBytes,
        blobs,
      });
      registerAutoModerationRoutes(api, services.autoModerationRules);
      registerGuildSettingsRoutes(api, services);
      registerGuildTemplateRoutes(api, services.guildTemplates);
      registerWebhookRoutes(api, {
        webhooks: services.webhooks,
        messages: services.messages,
        interactions: services.interactionResponses.webhooks,
        uploads: {
          maxAttachmentBytes: config.maxAttachmentBytes,
          maxUploadBytes: uploadLimitBytes(config),
          maxPayloadBytes: config.maxBodyBytes,
          blobs,
        },
      });
      done();
    },
    { prefix: API_PREFIX },
  );
  await registerOAuthRoutes(http, {
    ...services.oauth,
    storage,
    authenticator: deps.authenticator,
    clock: deps.clock,
    auth: services.auth,
    applications: services.applications,
    issuer: deps.baseUrl,
    apiPrefix: API_PREFIX,
    provisional,
  });
  // The pages go where the API is: they call it on their own origin.
  if (roleServes(config.role, 'api')) {
    await registerWebApp(http, {
      webDir: config.webDir,
      gatewayUrl,
      publicUrl: config.publicUrl,
      // The port the API is reached on (the listener's, or the public URL's).
      activityFrameSource: () =>
        activityFrameSource(config, Number(new URL(deps.baseUrl()).port || '80')),
    });
  }
}
