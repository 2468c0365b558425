/**
 * @module voice/types: what the voice node (voice/gateway.ts) needs from its parts, so each part
 * is built and tested on its own: the DAVE delivery service (voice/dave), the media relay
 * (voice/relay), the voice tokens and the voice state check (voice/token.ts, voice/voiceStates.ts)
 * and the placement of calls on voice nodes (voice/placement.ts). app.ts binds the real ones.
 */
import type { VoiceEncryptionMode } from '@guildhall/protocol';

/** A message the DAVE delivery service asks the voice node to send. */
export interface DaveMessage {
  /** The members (user ids) it goes to. */
  to: readonly string[];
  op: number;
  /** `d` of a JSON op (21, 22, 24). */
  json?: unknown;
  /** The payload after the opcode byte of a binary op (25, 27, 29, 30). */
  binary?: Uint8Array;
}

/** One call's MLS delivery service and external sender: it never holds a group key. */
export interface DaveCallPort {
  addMember(userId: string): DaveMessage[];
  removeMember(userId: string): DaveMessage[];
  keyPackage(userId: string, payload: Uint8Array): DaveMessage[];
  commitWelcome(userId: string, payload: Uint8Array): DaveMessage[];
  transitionReady(userId: string, transitionId: number): DaveMessage[];
  invalidCommitWelcome(userId: string, transitionId: number): DaveMessage[];
  tick(): DaveMessage[];
  readonly epoch: number;
}

/** The media relay: members' UDP bindings, transport keys and forwarding. */
export interface MediaRelayPort {
  readonly ip: string;
  readonly port: number;
  addMember(callId: string, userId: string): { ssrc: number };
  selectProtocol(ssrc: number, mode: VoiceEncryptionMode): { secretKey: Uint8Array };
  setDeaf(ssrc: number, deaf: boolean): void;
  removeMember(ssrc: number): void;
  stats(): {
    calls: number;
    members: number;
    packetsIn: number;
    packetsOut: number;
    dropped: Record<string, number>;
  };
  close(): Promise<void>;
}

/** What a voice token grants: one session of one user in one call. */
export interface VoiceGrantView {
  userId: string;
  sessionId: string;
  /** The guild id, or the lobby id of a lobby call (Identify's `server_id`). */
  serverId: string;
  guildId: string | null;
  channelId: string;
  expiresAtMs: number;
}

export interface VoiceTokenVerifier {
  verify(token: string, nowMs: number): VoiceGrantView | null;
}

/** The user's voice state as the main gateway keeps it, for the Identify check. */
export interface CurrentVoiceState {
  channelId: string;
  sessionId: string;
  selfMute: boolean;
  selfDeaf: boolean;
}

export type VoiceStateLookup = (q: {
  guildId: string | null;
  channelId: string;
  userId: string;
}) => Promise<CurrentVoiceState | null>;

/** The voice node's side of call placement. */
export interface VoiceNodeRegistry {
  register(endpoint: string): Promise<void>;
  heartbeat(load: number): Promise<void>;
  release(callKey: string): Promise<void>;
  close(): Promise<void>;
}
