import { APP_MODULES, type Services } from './appModules.js';
import type { WebhookEventsService } from './delivery/service.js';
import type { SecretBox } from './domain/secretBox.js';
import { dispatchingStorage } from './events/afterCommit.js';
import type { Dispatcher } from './events/dispatcher.js';
import type { IdTokenKeyPair } from './oauth/index.js';
import type { ActivityInvitePorts } from './resources/activityInvites/index.js';
import type { AuthSettings } from './resources/auth/index.js';
import type { AutoModRuleCache, BudgetClocks } from './resources/autoModeration/index.js';
import type { WidgetPorts } from './resources/guildSettings/index.js';
import type { ServiceDeps, SocialLimits } from './resources/deps.js';
import { announceGuildUpdate } from './resources/guilds/index.js';
import type { AttachmentLinks } from './resources/messages/index.js';
import type { SearchIndexer } from './resources/search/index.js';
import { LOCAL_REGION_ID } from './resources/voice/index.js';
import type { Timers } from './domain/clock.js';
import type { DeliveryFaultHook } from './delivery/faults.js';

export type { Services } from './appModules.js';

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

/**
 * Every service over the same deps: the modules of appModules.ts, each built in its turn from
 * the root's context and the services before it (app.ts wires them; the routes use them).
 */
export function createServices(
  base: ServiceDeps & {
    webhookEvents: WebhookEventsService;
    secrets: SecretBox;
    socialLimits: SocialLimits;
  },
  options: ServiceOptions & { events: Dispatcher; onCommitTaskError: (err: unknown) => void },
): Services {
  // Services announce dispatches only through their storage, once the change commits
  // (events/afterCommit.ts); they are not handed the dispatcher itself.
  const deps = {
    ...base,
    storage: dispatchingStorage(base.storage, options.events, options.onCommitTaskError),
  };
  return APP_MODULES.build({
    ...options,
    deps,
    // Guilds create channels: the channel service is handed the guild's GUILD_UPDATE here.
    announceGuildUpdate,
    callRegion: LOCAL_REGION_ID,
  });
}
