/**
 * @module voice/gateway/tick: the node's periodic pass. Connections without Identify past their
 * deadline or without a heartbeat in time are closed, members whose Resume did not come in time
 * leave, each call's DAVE group gets its tick, and every few ticks the placement learns the
 * node's load (a call another node now holds is left).
 */
import { VoiceCloseCodes as Close } from '@guildhall/protocol';
import { HEARTBEAT_TICKS } from './limits.js';
import { closeConn, type Membership } from './membership.js';
import { route } from './send.js';
import type { VoiceNodeState } from './state.js';

export function createTick(node: VoiceNodeState, membership: Membership): () => void {
  const { calls, conns, deps, unidentified } = node;
  const { options, clock, logger } = deps;
  const { disconnect, removeMember } = membership;
  let ticks = 0;

  const tick = () => {
    const now = clock.now();
    const heartbeatDeadline = options.heartbeatIntervalMs * 2 + 5_000;
    for (const conn of conns) {
      if (!conn.busy && unidentified.overdue(conn, now)) {
        closeConn(conn, Close.NOT_AUTHENTICATED, 'no identify in time');
      } else if (now - conn.lastHeartbeatMs > heartbeatDeadline) {
        const member = conn.member;
        if (member !== null) disconnect(member, Close.SESSION_TIMEOUT, 'no heartbeat in time');
        else closeConn(conn, Close.SESSION_TIMEOUT, 'no heartbeat in time');
      }
    }
    for (const call of [...calls.values()]) {
      for (const member of [...call.members.values()]) {
        if (member.droppedAtMs !== null && now - member.droppedAtMs > options.resumeWindowMs) {
          removeMember(member, 'no resume in time');
        }
      }
      if (calls.get(call.key) === call) route(call, call.dave.tick());
    }
    if (++ticks % HEARTBEAT_TICKS === 0) announce();
  };

  /**
   * Tells the placement this node's load and calls. A call another node holds now (this one was
   * thought gone) is left: its members join again through op 4 and reach that node.
   */
  const announce = () => {
    let members = 0;
    for (const call of calls.values()) members += call.members.size;
    deps.registry
      ?.heartbeat(members, [...calls.keys()])
      .then(({ lost }) => {
        for (const key of lost) {
          const call = calls.get(key);
          if (call === undefined) continue;
          logger.warn({ channelId: call.channelId }, 'voice call moved to another node');
          for (const member of [...call.members.values()]) {
            disconnect(member, Close.SESSION_NO_LONGER_VALID, 'the call moved: join again');
          }
        }
      })
      .catch((err: unknown) => {
        logger.warn({ err }, 'voice node heartbeat not recorded');
      });
  };

  return tick;
}
