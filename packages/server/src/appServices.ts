import type { WebhookEventsService } from './delivery/service.js';
import type { SecretBox } from './domain/secretBox.js';
import { dispatchingStorage } from './events/afterCommit.js';
import type { Dispatcher } from './events/dispatcher.js';
import { createOAuth, type IdTokenKeyPair } from './oauth/index.js';
import {
  createActivityInviteService,
  type ActivityInvitePorts,
} from './resources/activityInvites/index.js';
import { createApplicationService } from './resources/applications/index.js';
import { createAuditLogService } from './resources/auditLog/index.js';
import { createAuthService, type AuthSettings } from './resources/auth/index.js';
import {
  createAutoModerationEnforcer,
  createAutoModerationService,
  type AutoModRuleCache,
  type BudgetClocks,
} from './resources/autoModeration/index.js';
import { createBanService } from './resources/bans/index.js';
import {
  createOverwriteService,
  createChannelPositionService,
  createChannelService,
  createVoiceStatusService,
} from './resources/channels/index.js';
import { createConnectionService } from './resources/connections/index.js';
import { createGameStatsService } from './resources/gameStats/index.js';
import { createGuildTemplateService } from './resources/guildTemplates/index.js';
import {
  createGuildSettingsService,
  createIntegrationService,
  createJoinRequestService,
  createPreviewService,
  createWidgetService,
  type WidgetPorts,
} from './resources/guildSettings/index.js';
import { createGuildTagService } from './resources/guildTags/index.js';
import {
  createMonetizationService,
  createSubscriptionService,
} from './resources/monetization/index.js';
import type { ServiceDeps, SocialLimits } from './resources/deps.js';
import {
  createGroupRecipientService,
  createPrivateChannelService,
  createPrivateMessageRules,
  createSdkDmService,
} from './resources/dms/index.js';
import { createEmojiService } from './resources/emojis/index.js';
import {
  createGuildManageService,
  createMyGuildsService,
  createGuildService,
  announceGuildUpdate,
} from './resources/guilds/index.js';
import { createInviteService } from './resources/invites/index.js';
import { createLobbyService } from './resources/lobbies/index.js';
import {
  createPruneService,
  createMemberService,
  type ProfileCheck,
} from './resources/members/index.js';
import {
  createMessageService,
  createPinService,
  type AttachmentLinks,
  createReactionService,
} from './resources/messages/index.js';
import { createRoleService } from './resources/roles/index.js';
import { createScheduledEventService } from './resources/scheduledEvents/index.js';
import { createMessageSearchService, type SearchIndexer } from './resources/search/index.js';
import { createStickerService } from './resources/stickers/index.js';
import { createSoundboardService } from './resources/soundboard/index.js';
import { LOCAL_REGION_ID, createVoiceServices } from './resources/voice/index.js';
import { createCallServices } from './resources/calls/index.js';
import { createAppDataServices } from './resources/appData/index.js';
import { createUserService } from './resources/users/index.js';
import { createRelationshipService } from './resources/relationships/index.js';
import { createCommandService } from './resources/commands/index.js';
import { createWebhookService } from './resources/webhooks/index.js';
import { createPollService } from './resources/polls/index.js';
import { createAnnouncementService } from './resources/announcements/index.js';
import {
  createThreadListService,
  createThreadMemberService,
  createThreadService,
  threadChannelRoutes,
} from './resources/threads/index.js';
import type { Timers } from './domain/clock.js';
import { createInteractionsEndpoint } from './delivery/interactionsEndpoint.js';
import type { DeliveryFaultHook } from './delivery/faults.js';
import { createActivityConfigService, createActivityInstanceService } from './activities/index.js';
import {
  createInteractionLifecycle,
  createInteractionResponses,
  createInteractionService,
} from './resources/interactions/index.js';

/** What services need beyond ServiceDeps. */
interface ServiceOptions {
  /** The public base URL (no /api), known once listening; also the OpenID issuer. */
  baseUrl: () => string;
  /** What attachment URLs are made of (the base URL and the signer). */
  links: () => AttachmentLinks;
  /** Builds guild search indexes in the background. */
  searchIndexer: SearchIndexer;
  /** Session lifetime and password hashing cost. */
  auth: AuthSettings;
  /** The presences and social graph accepting an activity invite reads. */
  activityInvites: ActivityInvitePorts;
  /** The live presences the guild widget and preview count (the gateway's shared store). */
  presencesOf: WidgetPorts['presencesOf'];
  /** Told of a lobby message not mirrored into its linked channel (the send stands). */
  onLobbyMirrorError?: (err: unknown, context: { lobbyId: string; messageId: string }) => void;
  /** The origin an application's activity is served from (the proxy host). */
  activityOrigin: (applicationId: string) => string;
  /** The ID token key pair stored when the database has none (tests); else one is made. */
  idTokenKey?: IdTokenKeyPair | undefined;
  /** From this many users an app's privileged intents need a review (the gateway's threshold). */
  privilegedIntentReviewThreshold: number;
  /** The CPU budget auto-moderation checks a message (or a member's names) within. */
  autoModeration: BudgetClocks;
  /** Each guild's auto-moderation rules, held by this node (dropped when they change). */
  autoModRules: AutoModRuleCache;
  /** Interactions: their timers (tests fire them), limits, and where delivery errors go. */
  interactions: {
    timers: Timers;
    /** Loopback and private endpoint URLs allowed (config allowLocalWebhooks). */
    allowLocal: boolean;
    /** The largest file a user may upload, in bytes (`attachment_size_limit`). */
    attachmentSizeLimit: number;
    onError: (err: unknown, context: { interactionId?: string }) => void;
    /** A test harness's failure to report instead of posting (delivery/faults.ts). */
    deliveryFault?: DeliveryFaultHook;
  };
}

/** Every resource service over the same deps (app.ts wires them; the routes use them). */
export function createServices(
  base: ServiceDeps & {
    webhookEvents: WebhookEventsService;
    secrets: SecretBox;
    socialLimits: SocialLimits;
  },
  options: ServiceOptions & { events: Dispatcher; onCommitTaskError: (err: unknown) => void },
) {
  // Services announce dispatches only through their storage, once the change commits
  // (events/afterCommit.ts); they are not handed the dispatcher itself.
  const deps = {
    ...base,
    storage: dispatchingStorage(base.storage, options.events, options.onCommitTaskError),
  };
  const guilds = createGuildService(deps);
  // DMs and group DMs: their rules ride on the message service, their routes use both.
  const privateRules = createPrivateMessageRules({
    ...deps,
    webhookEvents: deps.webhookEvents,
    socialLimits: deps.socialLimits,
    links: options.links,
  });
  // Threads: forum posts post their first message; the message routes ask the thread rules.
  const threads = createThreadService({ ...deps, messages: () => messages });
  // Auto-moderation: checked on guild message creates and member name changes.
  const autoModeration = createAutoModerationEnforcer({
    ...deps,
    links: options.links,
    budget: options.autoModeration,
    rules: options.autoModRules,
  });
  // A member's names are checked when they change and when the member joins.
  const profileCheck: ProfileCheck = (tx, request) => autoModeration.checkMember(tx, request);
  const messages = createMessageService(deps, {
    ...options,
    privateRules,
    threadRules: threads,
    moderation: autoModeration,
  });
  // DM and group-DM calls: op 4's lifecycle, the ringing routes, a group's leaves and removals.
  const calls = createCallServices({ ...deps, links: options.links, region: LOCAL_REGION_ID });
  const privateChannels = createPrivateChannelService(deps, { calls: calls.lifecycle });
  // The 3-second rule and the endpoint check/delivery of interactions (resources/interactions).
  const interactionLifecycle = createInteractionLifecycle({
    storage: deps.storage,
    clock: deps.clock,
    timers: options.interactions.timers,
    onError: (err) => {
      options.interactions.onError(err, {});
    },
  });
  // Activities: the developer config, and the instances people launch (activities/).
  const activityConfig = createActivityConfigService({
    ...deps,
    activityOrigin: options.activityOrigin,
  });
  const activityInstances = createActivityInstanceService({
    ...deps,
    activityOrigin: options.activityOrigin,
  });
  // The app's responses: the callback route's and the HTTP delivery's, followups, @original.
  const interactionResponses = createInteractionResponses({
    storage: deps.storage,
    clock: deps.clock,
    lifecycle: interactionLifecycle,
    messages,
    activities: activityInstances,
  });
  const handleInteractionCallback = interactionResponses.handleCallback;
  const interactionsEndpoint = createInteractionsEndpoint({
    clock: deps.clock,
    secrets: deps.secrets,
    allowLocal: options.interactions.allowLocal,
    ...(options.interactions.deliveryFault
      ? { fault: { hook: options.interactions.deliveryFault, timers: options.interactions.timers } }
      : {}),
  });
  return {
    activityConfig,
    activityInstances,
    privateChannels,
    sdkDms: createSdkDmService(deps, { privateChannels, messages }),
    groupRecipients: createGroupRecipientService(deps, { calls: calls.lifecycle }),
    users: createUserService(deps),
    auth: createAuthService(deps, options.auth),
    applications: createApplicationService({
      ...deps,
      interactionsEndpoint,
      privilegedIntentReviewThreshold: options.privilegedIntentReviewThreshold,
    }),
    guilds,
    guildManage: createGuildManageService(deps),
    myGuilds: createMyGuildsService(deps),
    channels: createChannelService({ ...deps, announceGuildUpdate }),
    channelPositions: createChannelPositionService(deps),
    overwrites: createOverwriteService(deps),
    voiceStatus: createVoiceStatusService(deps),
    auditLog: createAuditLogService(deps),
    roles: createRoleService(deps),
    members: createMemberService(deps, { profileCheck }),
    autoModerationRules: createAutoModerationService({
      ...deps,
      budgetMs: options.autoModeration.budgetMs,
    }),
    guildSettings: createGuildSettingsService(deps),
    widget: createWidgetService({
      ...deps,
      presencesOf: options.presencesOf,
      baseUrl: options.baseUrl,
    }),
    preview: createPreviewService({ ...deps, presencesOf: options.presencesOf }),
    integrations: createIntegrationService(deps),
    joinRequests: createJoinRequestService(deps, { profileCheck }),
    guildTemplates: createGuildTemplateService(deps),
    prune: createPruneService(deps),
    bans: createBanService(deps),
    emojis: createEmojiService(deps),
    stickers: createStickerService(deps),
    scheduledEvents: createScheduledEventService(deps),
    voice: createVoiceServices(deps),
    calls,
    soundboard: createSoundboardService(deps),
    appData: createAppDataServices({ ...deps, links: options.links }),
    invites: createInviteService(deps, { profileCheck }),
    connections: createConnectionService(deps),
    gameStats: createGameStatsService(deps),
    guildTags: createGuildTagService(deps),
    monetization: createMonetizationService(deps),
    subscriptions: createSubscriptionService(deps),
    activityInvites: createActivityInviteService({ ...deps, ...options.activityInvites }),
    webhookEvents: deps.webhookEvents,
    oauth: createOAuth({
      ...deps,
      guilds,
      issuer: options.baseUrl,
      idTokenKey: options.idTokenKey,
    }),
    messages,
    reactions: createReactionService(deps),
    pins: createPinService(deps, options),
    messageSearch: createMessageSearchService(deps, {
      links: options.links,
      indexer: options.searchIndexer,
    }),
    relationships: createRelationshipService(deps),
    interactionResponses,
    lobbies: createLobbyService({
      ...deps,
      limits: deps.socialLimits,
      // A lobby message goes into the linked channel as its author, with no mention pinging.
      mirror: (principal, channelId, content) =>
        messages.create(principal, {
          channelId,
          input: { content, allowed_mentions: { parse: [] } },
          files: [],
        }),
      ...(options.onLobbyMirrorError === undefined
        ? {}
        : { onMirrorError: options.onLobbyMirrorError }),
    }),
    commands: createCommandService(deps),
    webhooks: createWebhookService({ ...deps, baseUrl: options.baseUrl }),
    threads,
    threadMembers: createThreadMemberService(deps),
    threadLists: createThreadListService(deps),
    threadChannels: threadChannelRoutes(deps.storage, threads),
    polls: createPollService({ ...deps, links: options.links }),
    announcements: createAnnouncementService({ ...deps, links: options.links }),
    interactionLifecycle,
    handleInteractionCallback,
    interactions: createInteractionService({
      ...deps,
      lifecycle: interactionLifecycle,
      endpoint: interactionsEndpoint,
      handleCallback: handleInteractionCallback,
      activities: activityInstances,
      links: options.links,
      attachmentSizeLimit: options.interactions.attachmentSizeLimit,
      onDeliveryError: (err, interactionId) => {
        options.interactions.onError(err, { interactionId });
      },
    }),
  };
}

export type Services = ReturnType<typeof createServices>;
