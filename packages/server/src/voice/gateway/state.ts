/**
 * @module voice/gateway/state: what the voice node's parts share: its calls, their members and
 * the connections, the relay once it listens, and the error that closes a connection with a code.
 */
import { VoiceCloseCodes as Close } from '@guildhall/protocol';
import type { WebSocket } from 'ws';
import type { z } from 'zod';
import type { SubjectSubscriptions } from '../../bus/subscriptions.js';
import type { UnidentifiedConnections } from '../../http/unidentified.js';
import type { DaveCall } from '../dave/index.js';
import type { MediaRelay } from '../relay/index.js';
import type { VoiceNodeDeps } from './options.js';

export interface Outgoing {
  seq: number;
  frame: string | Buffer;
}

export interface Member {
  call: Call;
  userId: string;
  sessionId: string;
  identifiedAtMs: number;
  ssrc: number;
  /** Transport selected: the member hears and is heard. */
  selected: boolean;
  conn: Conn | null;
  droppedAtMs: number | null;
  seq: number;
  outbox: Outgoing[];
  outboxBytes: number;
  /** The member's last Speaking, as others are told it (sent to whoever joins later). */
  speaking: { user_id: string; ssrc: number; speaking: number } | null;
  /** Its video streams (Identify's `streams`) with the ssrcs Ready gave them. */
  streams: MemberStream[];
  /** Its last op 12, as others are told it (sent to whoever joins later); null: none yet. */
  video: Record<string, unknown> | null;
}

/** A video stream of a member (a camera or a screen) and its ssrcs. */
export interface MemberStream {
  type: 'video' | 'screen';
  rid: string;
  quality: number;
  ssrc: number;
  rtx_ssrc: number;
}

export interface Call {
  key: string;
  guildId: string | null;
  channelId: string;
  serverId: string;
  members: Map<string, Member>;
  dave: DaveCall;
}

export interface Conn {
  ws: WebSocket;
  lastHeartbeatMs: number;
  member: Member | null;
  windowStartMs: number;
  windowFrames: number;
  /** Identify or Resume under way (the checks wait on storage). */
  busy: boolean;
}

export class CloseError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.code = code;
  }
}

/** The node's state, shared by its parts (voice/gateway.ts builds it). */
export interface VoiceNodeState {
  deps: VoiceNodeDeps;
  calls: Map<string, Call>;
  conns: Set<Conn>;
  /** The media relay (null before it listens). */
  relay: MediaRelay | null;
  closing: boolean;
  subscriptions: SubjectSubscriptions;
  /** Connections without Identify or Resume: a cap per client address, and a deadline. */
  unidentified: UnidentifiedConnections<Conn>;
}

/** A payload of the shape `schema` names, or a close (malformed payload). */
export const parse = <T>(schema: z.ZodType<T>, d: unknown): T => {
  const result = schema.safeParse(d);
  if (!result.success) throw new CloseError(Close.FAILED_TO_DECODE, 'malformed payload');
  return result.data;
};
