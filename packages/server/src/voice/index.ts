/**
 * @module voice: end-to-end encrypted calls. The main gateway's op 4 grants a voice token
 * (token.ts) for the endpoint of a voice node; the voice node (gateway.ts) is a WebSocket with
 * the DAVE delivery service (dave/) and a UDP media relay (relay/) on one port number.
 * `openVoiceNode` builds one from the config, as `guildhall start` runs it.
 */
import type { Logger } from 'pino';
import type { EventBus } from '../bus/index.js';
import type { Config } from '../config.js';
import type { IncomingMessage } from 'node:http';
import type { Clock, Timers } from '../domain/clock.js';
import type { Storage } from '../storage/index.js';
import { DaveCall } from './dave/index.js';
import {
  DEFAULT_VOICE_NODE_OPTIONS,
  createVoiceNode,
  type VoiceNode,
  type VoiceNodeRegistry,
  type VoiceNodeStats,
  type VoiceNodeTuning,
} from './gateway.js';
import { MediaRelay } from './relay/index.js';
import { loadVoiceTls, type VoiceTlsMaterial } from './tlsCert.js';
import type { VoiceTokens } from './token.js';
import { currentVoiceState } from './voiceStates.js';

export { createVoiceTokens, type VoiceGrant, type VoiceTokens } from './token.js';
export { currentVoiceState, type CurrentVoiceState } from './voiceStates.js';
export type { VoiceNode, VoiceNodeStats, VoiceNodeTuning } from './gateway.js';
export type { VoiceTlsMaterial } from './tlsCert.js';

export interface VoiceNodeWiring {
  config: Pick<
    Config,
    | 'voiceHost'
    | 'voicePort'
    | 'voiceEndpoint'
    | 'voicePublicIp'
    | 'voiceTlsCert'
    | 'voiceTlsKey'
    | 'voiceMaxMembers'
    | 'voiceMaxPacketBytes'
    | 'dataDir'
  >;
  storage: Storage;
  bus: EventBus;
  clock: Clock;
  logger: Logger;
  tokens: VoiceTokens;
  registry?: VoiceNodeRegistry;
  /** The client address of an upgrade, under the deployment's proxy trust rule. */
  clientAddress?: (request: IncomingMessage) => string;
  /** Limits and waits over the defaults, and the timers of its periodic pass (tests). */
  tuning?: { options?: Partial<VoiceNodeTuning>; timers?: Timers };
}

/** The host and port of `host:port` (an IPv6 host in brackets). */
function splitEndpoint(endpoint: string): { host: string; port: number } {
  const at = endpoint.lastIndexOf(':');
  return { host: endpoint.slice(0, at), port: Number(endpoint.slice(at + 1)) };
}

/**
 * A voice node from the config, not yet listening; and its TLS material, read or made on first
 * use: the operator's files (`--voice-tls-cert`) when the node starts listening, so that
 * unreadable ones stop the start; a development certificate at the first TLS connection or the
 * first call of `tls()` (a node only ever reached over plain WebSocket, a test's, makes none).
 */
export function openVoiceNode(wiring: VoiceNodeWiring): {
  node: VoiceNode;
  tls: () => Promise<VoiceTlsMaterial>;
} {
  const { config, clock, logger } = wiring;
  const advertised = splitEndpoint(config.voiceEndpoint);
  let material: Promise<VoiceTlsMaterial> | undefined;
  const tls = () =>
    (material ??= loadVoiceTls({
      certPath: config.voiceTlsCert,
      keyPath: config.voiceTlsKey,
      dataDir: config.dataDir,
      host: advertised.host,
      nowMs: clock.now(),
    }).then(
      (loaded) => {
        if (loaded.development) {
          logger.info(
            { endpoint: node.endpoint(), certificate: loaded.certPath },
            'voice uses a development certificate: Node clients trust it with NODE_EXTRA_CA_CERTS',
          );
        }
        return loaded;
      },
      (err: unknown) => {
        // A certificate that could not be made is tried again at the next use.
        material = undefined;
        throw err;
      },
    ));
  const node = createVoiceNode({
    options: {
      ...DEFAULT_VOICE_NODE_OPTIONS,
      host: config.voiceHost,
      port: config.voicePort,
      endpointHost: advertised.host,
      // An endpoint given with its own port (a proxy's) is named as given.
      endpointPort: config.voicePort === 0 ? null : advertised.port,
      maxMembersPerCall: config.voiceMaxMembers,
      ...wiring.tuning?.options,
    },
    tls,
    tlsAtListen: config.voiceTlsCert !== null || config.voiceTlsKey !== null,
    clock,
    ...(wiring.tuning?.timers ? { timers: wiring.tuning.timers } : {}),
    ...(wiring.clientAddress ? { clientAddress: wiring.clientAddress } : {}),
    logger,
    bus: wiring.bus,
    tokens: wiring.tokens,
    voiceState: (q) => currentVoiceState(wiring.storage, q),
    openRelay: (host, port) =>
      MediaRelay.listen({
        host,
        port,
        publicIp: config.voicePublicIp,
        maxPacketBytes: config.voiceMaxPacketBytes,
        maxMembersPerCall: config.voiceMaxMembers,
        logger,
        clock,
      }),
    createDave: (channelId) =>
      new DaveCall({ channelId, clock, maxMembers: config.voiceMaxMembers }),
    ...(wiring.registry ? { registry: wiring.registry } : {}),
  });
  return { node, tls };
}

/** The voice node's figures in Prometheus's text format (for /metrics). */
export function voiceMetricLines(stats: VoiceNodeStats): string[] {
  const lines = [
    '# HELP guildhall_voice_calls Calls this voice node holds.',
    '# TYPE guildhall_voice_calls gauge',
    `guildhall_voice_calls ${stats.calls}`,
    '# HELP guildhall_voice_members Members in those calls (connected or waiting to resume).',
    '# TYPE guildhall_voice_members gauge',
    `guildhall_voice_members ${stats.members}`,
    '# HELP guildhall_voice_connections Open voice WebSocket connections.',
    '# TYPE guildhall_voice_connections gauge',
    `guildhall_voice_connections ${stats.connections}`,
  ];
  const { relay } = stats;
  if (relay === null) return lines;
  lines.push(
    '# HELP guildhall_voice_packets_received_total UDP datagrams the media relay received.',
    '# TYPE guildhall_voice_packets_received_total counter',
    `guildhall_voice_packets_received_total ${relay.packetsIn}`,
    '# HELP guildhall_voice_packets_forwarded_total Media packets the relay sent to receivers.',
    '# TYPE guildhall_voice_packets_forwarded_total counter',
    `guildhall_voice_packets_forwarded_total ${relay.packetsOut}`,
    '# HELP guildhall_voice_packets_dropped_total Datagrams the relay dropped, by reason.',
    '# TYPE guildhall_voice_packets_dropped_total counter',
    ...Object.entries(relay.dropped).map(
      ([reason, count]) => `guildhall_voice_packets_dropped_total{reason="${reason}"} ${count}`,
    ),
  );
  return lines;
}
