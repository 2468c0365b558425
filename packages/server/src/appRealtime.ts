import type { AppOverrides } from './appTypes.js';
import { roleServes, type Config } from './config.js';
import type { Clock } from './domain/clock.js';
import type { SecretKeyring } from './domain/keyring.js';
import {
  DEFAULT_GATEWAY_OPTIONS,
  createDatabaseSessionStore,
  createGateway,
  storageSocialProviders,
  type Gateway,
  type GatewayDeps,
  type GatewayHooks,
  type GatewayOptions,
} from './gateway/index.js';
import { clientAddressOf } from './http/server.js';
import { createVoiceTokens, openVoiceNode, voiceMetricLines } from './voice/index.js';
import { createVoicePlacement, type VoicePlacement } from './voice/placement.js';
import type { RateLimitStore, SharedState } from './sharedState/index.js';
import {
  DEFAULT_SESSION_START_LIMIT,
  createSessionStartLimit,
} from './resources/gatewayInfo/index.js';
import { SECOND_MS } from './domain/time.js';

/** The real-time side of an app: voice placement, this process's voice node, the gateway. */
export interface AppRealtime {
  voicePlacement: VoicePlacement;
  /** The voice node of a process that serves voice, else null. */
  voice: ReturnType<typeof openVoiceNode> | null;
  gateway: Gateway;
}

/**
 * Builds voice placement, the voice node (for a role that serves voice, its counters added to
 * /metrics) and the gateway, which hands out voice endpoints and tokens (op 4).
 */
export function createAppRealtime(
  deps: Pick<
    GatewayDeps,
    | 'storage'
    | 'bus'
    | 'clock'
    | 'logger'
    | 'authenticator'
    | 'sessionStartLimit'
    | 'events'
    | 'gatewayUrl'
    | 'calls'
    | 'onPersonGone'
  > & {
    config: Config;
    /** The real clock: heartbeats, node liveness, voice (the platform's is `clock`). */
    wireClock: Clock;
    /** What the test controls watch and bend in the gateway (appControl.ts). */
    gatewayHooks: GatewayHooks;
    overrides: Pick<AppOverrides, 'voice' | 'gatewayTimers'>;
    gatewayOptions: GatewayOptions;
    sharedState: SharedState;
    keyring: SecretKeyring;
    metrics: { addSource(lines: () => string[]): void };
  },
): AppRealtime {
  const { config, overrides, gatewayOptions, sharedState, keyring, metrics, wireClock } = deps;
  const { storage, bus, clock, logger, authenticator, sessionStartLimit, events, gatewayUrl } =
    deps;

  // Which voice node serves each call; op 4 picks with it, voice nodes announce themselves.
  const voicePlacement = createVoicePlacement({
    store: sharedState.voiceNodes,
    clock: wireClock,
    fallbackEndpoint: config.voiceEndpoint,
  });
  // The voice node (WebSocket and media relay on the voice port) of a process that serves voice.
  const voiceTokens = createVoiceTokens(keyring);
  const voice = roleServes(config.role, 'voice')
    ? openVoiceNode({
        config,
        storage,
        bus,
        clock: wireClock,
        logger,
        tokens: voiceTokens,
        registry: voicePlacement,
        clientAddress: (request) => clientAddressOf(request, config.trustProxy),
        ...(overrides.voice ? { tuning: overrides.voice } : {}),
      })
    : null;
  // Its calls, members and relay counters go out with /metrics.
  if (voice !== null) {
    metrics.addSource(() => voiceMetricLines(voice.node.stats()));
  }
  const gateway = createGateway({
    storage,
    bus,
    clock,
    wireClock,
    hooks: deps.gatewayHooks,
    logger,
    authenticator,
    sessionStartLimit,
    sharedState,
    events,
    gatewayUrl,
    options: gatewayOptions,
    ...(overrides.gatewayTimers ? { timers: overrides.gatewayTimers } : {}),
    clientAddress: (request) => clientAddressOf(request, config.trustProxy),
    // What SDK sessions see of their user's social graph (gateway/social.ts).
    social: storageSocialProviders(storage),
    // Op 4 naming a private channel: its call (resources/calls).
    ...(deps.calls === undefined ? {} : { calls: deps.calls }),
    // A person's last session ended: they leave the activities of text channels and DMs.
    ...(deps.onPersonGone === undefined ? {} : { onPersonGone: deps.onPersonGone }),
    // Op 4's VOICE_SERVER_UPDATE: the voice node holding the call (else the least loaded; the
    // configured endpoint while none is listed) and a token every node checks with the key.
    voice: {
      tokens: voiceTokens,
      endpointFor: (callKey) => voicePlacement.pick(callKey),
      maxMembers: config.voiceMaxMembers,
    },
    // Several nodes share PostgreSQL: a session resumes on any of them. SQLite is one process.
    ...(storage.dialect === 'postgres'
      ? {
          sessionStore: createDatabaseSessionStore({
            storage,
            keep: gatewayOptions.replayLimit,
            logger,
            clock: wireClock,
            resumeWindowMs: gatewayOptions.resumeWindowMs,
          }),
        }
      : {}),
  });
  // Its sessions, logins, dispatches and closes go out with /metrics.
  metrics.addSource(() => gateway.metricLines());
  return { voicePlacement, voice, gateway };
}

/**
 * The gateway's settings, from the configuration and a test's overrides, and the daily and
 * concurrent session-start limit they set (kept in the shared rate-limit store).
 */
export function gatewaySettings(
  config: Config,
  overrides: Pick<AppOverrides, 'gateway'>,
  limit: { store: RateLimitStore; clock: Clock },
) {
  const gatewayOptions: GatewayOptions = {
    ...DEFAULT_GATEWAY_OPTIONS,
    identifyTimeoutMs: config.gatewayIdentifyTimeoutSeconds * SECOND_MS,
    maxUnidentifiedPerAddress: config.gatewayMaxUnidentifiedPerAddress,
    maxBufferedBytes: config.gatewayMaxBufferedBytes,
    ...overrides.gateway,
  };
  const sessionStartLimit = createSessionStartLimit({
    ...DEFAULT_SESSION_START_LIMIT,
    totalPerDay: gatewayOptions.identifyPerDay,
    maxConcurrency: gatewayOptions.maxConcurrency,
    ...limit,
  });
  return { gatewayOptions, sessionStartLimit };
}
