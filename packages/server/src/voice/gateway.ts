/**
 * @module voice/gateway: the voice node. A WebSocket at `/?v=8` on the voice port (TLS or plain,
 * voice/listener.ts) and the media relay on the same port number over UDP. A client holding a
 * voice token from VOICE_SERVER_UPDATE identifies, learns its ssrc and the relay's address,
 * selects a transport encryption mode and gets its key; from then on the DAVE delivery service
 * (voice/dave) moves MLS messages between the members and the relay forwards their still
 * end-to-end encrypted media. A client that does not offer DAVE is refused (4017). The main
 * gateway's voice states rule membership: a member whose voice state leaves the call is
 * disconnected (docs/voice.md#the-voice-gateway).
 *
 * The parts, in voice/gateway/: the options (options.ts), limits (limits.ts) and shared state
 * (state.ts); what leaves (send.ts); calls and members (membership.ts); the main gateway's voice
 * states (voiceStates.ts); Identify and Resume (handshake.ts); a member's commands
 * (commands.ts); one frame in (receive.ts); the connection loop (connection.ts); the periodic
 * pass (tick.ts). This file puts them together.
 */
import type { BusEvent } from '../bus/index.js';
import { realTimers } from '../domain/clock.js';
import { createSubjectSubscriptions } from '../bus/subscriptions.js';
import { trackUnidentified } from '../http/unidentified.js';
import { createDualListener, type DualListener } from './listener.js';
import { createCommands } from './gateway/commands.js';
import { createUpgradeHandler, listenBoth } from './gateway/connection.js';
import { createHandshake } from './gateway/handshake.js';
import { TICK_MS } from './gateway/limits.js';
import { closeConn, createMembership } from './gateway/membership.js';
import type { VoiceNode, VoiceNodeDeps } from './gateway/options.js';
import { createFrameHandler } from './gateway/receive.js';
import type { Conn, VoiceNodeState } from './gateway/state.js';
import { createTick } from './gateway/tick.js';
import { createDispatchHandler } from './gateway/voiceStates.js';

export {
  DEFAULT_VOICE_NODE_OPTIONS,
  type VoiceNode,
  type VoiceNodeDeps,
  type VoiceNodeOptions,
  type VoiceNodeRegistry,
  type VoiceNodeStats,
  type VoiceNodeTuning,
  type VoiceStateLookup,
} from './gateway/options.js';

export function createVoiceNode(deps: VoiceNodeDeps): VoiceNode {
  const { options, clock, logger } = deps;
  let listener: DualListener | null = null;
  let port = options.port;
  let stopTicking: (() => void) | null = null;
  let onDispatch: ((event: BusEvent) => void) | null = null;
  const node: VoiceNodeState = {
    deps,
    calls: new Map(),
    conns: new Set(),
    relay: null,
    closing: false,
    subscriptions: createSubjectSubscriptions({
      bus: deps.bus,
      handler: (event) => {
        onDispatch?.(event);
      },
    }),
    /** Connections without Identify or Resume: a cap per client address, and a deadline. */
    unidentified: trackUnidentified<Conn>({
      clock,
      limits: {
        maxPerAddress: options.maxUnidentifiedPerAddress,
        timeoutMs: options.identifyTimeoutMs,
      },
    }),
  };
  const { calls, conns, subscriptions } = node;
  const membership = createMembership(node);
  const { removeMember } = membership;
  onDispatch = createDispatchHandler(node, membership);
  const onFrame = createFrameHandler(
    node,
    createHandshake(node, membership),
    createCommands(node, membership),
  );
  const onUpgrade = createUpgradeHandler(node, membership, onFrame);
  const tick = createTick(node, membership);

  const endpoint = () => `${options.endpointHost}:${options.endpointPort ?? port}`;

  return {
    async listen() {
      if (deps.tlsAtListen === true) await deps.tls();
      listener = createDualListener(deps.tls, (err) => {
        logger.error({ err }, 'voice TLS certificate not available: TLS connection dropped');
      });
      listener.http.on('upgrade', onUpgrade);
      const opened = await listenBoth(listener, deps, options);
      node.relay = opened.relay;
      port = opened.port;
      const timers = deps.timers ?? realTimers;
      const turn = () => {
        stopTicking = timers.schedule(turn, TICK_MS);
        tick();
      };
      stopTicking = timers.schedule(turn, TICK_MS);
      await deps.registry?.register(endpoint());
      logger.info(
        { endpoint: endpoint() },
        'voice gateway listening (TCP) with its media relay (UDP)',
      );
      return endpoint();
    },
    endpoint,
    stats() {
      let members = 0;
      for (const call of calls.values()) members += call.members.size;
      return {
        calls: calls.size,
        members,
        connections: conns.size,
        relay: node.relay?.stats() ?? null,
      };
    },
    async close() {
      node.closing = true;
      stopTicking?.();
      for (const conn of conns) closeConn(conn, 1001, 'voice node shutting down');
      for (const call of [...calls.values()]) {
        for (const member of [...call.members.values()]) removeMember(member, 'shutdown');
      }
      subscriptions.close();
      await deps.registry?.withdraw();
      await listener?.close();
      await node.relay?.close();
    },
  };
}
