/**
 * DAVE (the platform's end-to-end encryption of media) for a Node voice connection: an MLS
 * member (`@snazzah/davey`) driven by the voice gateway's DAVE opcodes 21–31. The gateway is the
 * MLS delivery service: it relays the external sender (25), proposals (27), commits (29) and
 * welcomes (30), and announces transitions (21/22) and epochs (24); the member answers with its
 * key package (26), its commit and welcome (28), transition readiness (23) and, when a commit or
 * welcome does not apply, invalid commit/welcome (31) followed by a fresh key package.
 *
 * Frames are encrypted only once the group is established: before that `encrypt` returns null
 * and nothing leaves unencrypted (the silence frame aside, which carries no audio).
 *
 * @module
 */
import Davey from '@snazzah/davey';
import type { Logger } from '../log.js';
import { isSilenceFrame } from './nodeVoiceRtp.js';

/** Opcodes 21–31 (same values as `VoiceOpcodes` in @guildhall/protocol). */
export const DaveOp = {
  PrepareTransition: 21,
  ExecuteTransition: 22,
  TransitionReady: 23,
  PrepareEpoch: 24,
  MlsExternalSender: 25,
  MlsKeyPackage: 26,
  MlsProposals: 27,
  MlsCommitWelcome: 28,
  MlsAnnounceCommitTransition: 29,
  MlsWelcome: 30,
  MlsInvalidCommitWelcome: 31,
} as const;

type DaveySession = InstanceType<typeof Davey.DAVESession>;
/** davey's `MediaType.AUDIO` and `VIDEO` (its const enums are not reachable under isolated modules). */
const MEDIA_AUDIO = 0;
const MEDIA_VIDEO = 1;
/** davey's `Codec.VP8`: its frames keep their frame tag (and a key frame's header) in the clear. */
const CODEC_VP8 = 2;
/** Consecutive undecryptable frames (with no transition pending) before the group is rejoined. */
const DECRYPT_FAILURE_TOLERANCE = 36;
/** Pending transitions kept at most (each is a small entry; the gateway announces one at a time). */
const MAX_PENDING_TRANSITIONS = 64;

export interface DaveSend {
  json(op: number, d: unknown): void;
  binary(op: number, payload: Uint8Array): void;
}

export class DaveDriver {
  readonly #userId: string;
  readonly #channelId: string;
  readonly #send: DaveSend;
  readonly #logger: Logger;
  readonly #onEstablished: () => void;
  #version: number;
  #session: DaveySession;
  /** transition id → protocol version, announced (21) or implied by a commit/welcome (29/30). */
  readonly #pending = new Map<number, number>();
  #lastTransition: number | null = null;
  #transitioned = false;
  #failures = 0;
  #reinitializing = false;

  constructor(options: {
    userId: string;
    channelId: string;
    version: number;
    send: DaveSend;
    logger: Logger;
    /** Called each time a transition is executed (the group holds the members it announced). */
    onEstablished: () => void;
  }) {
    this.#userId = options.userId;
    this.#channelId = options.channelId;
    this.#version = options.version;
    this.#send = options.send;
    this.#logger = options.logger;
    this.#onEstablished = options.onEstablished;
    this.#session = new Davey.DAVESession(this.#version, this.#userId, this.#channelId);
    this.#sendKeyPackage();
  }

  /** The highest DAVE version this build speaks (Identify's `max_dave_protocol_version`). */
  static get maxVersion(): number {
    return Davey.DAVE_PROTOCOL_VERSION;
  }

  /** The group is established and a transition into it executed: frames can be encrypted. */
  get ready(): boolean {
    return this.#transitioned && this.#session.ready;
  }

  get privacyCode(): string {
    return this.ready ? this.#session.voicePrivacyCode : '';
  }

  /** JSON ops 21, 22, 24. */
  onJson(op: number, d: Record<string, unknown>): void {
    this.#logger.verbose(`DAVE: opcode ${op} ${JSON.stringify(d)}`);
    if (op === DaveOp.PrepareTransition) {
      const transitionId = transitionIdOf(d);
      const version = d['protocol_version'];
      if (transitionId === null || !Number.isInteger(version)) return;
      this.#remember(transitionId, version as number);
      if (transitionId === 0) this.#execute(0);
      else this.#send.json(DaveOp.TransitionReady, { transition_id: transitionId });
    } else if (op === DaveOp.ExecuteTransition) {
      const transitionId = transitionIdOf(d);
      if (transitionId !== null) this.#execute(transitionId);
    } else if (op === DaveOp.PrepareEpoch) {
      const epoch = d['epoch'];
      const version = d['protocol_version'];
      if (epoch === 1 && Number.isInteger(version) && (version as number) > 0) {
        // A new group: start over with a fresh key package.
        this.#version = version as number;
        this.#reinit();
      }
    }
  }

  /** Binary ops 25, 27, 29, 30 (the payload after the opcode byte). */
  onBinary(op: number, payload: Buffer, recognizedUserIds: readonly string[]): void {
    this.#logger.verbose(`DAVE: opcode ${op}, ${payload.length} bytes`);
    try {
      if (op === DaveOp.MlsExternalSender) {
        this.#session.setExternalSender(payload);
      } else if (op === DaveOp.MlsProposals) {
        if (payload.length < 1) return;
        const operation = payload.readUInt8(0);
        if (operation !== 0 && operation !== 1) return;
        const { commit, welcome } = this.#session.processProposals(
          // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- davey's const enum: 0 append, 1 revoke
          operation,
          payload.subarray(1),
          [...recognizedUserIds, this.#userId],
        );
        if (commit !== undefined) {
          this.#send.binary(
            DaveOp.MlsCommitWelcome,
            welcome === undefined ? commit : Buffer.concat([commit, welcome]),
          );
        }
      } else if (op === DaveOp.MlsAnnounceCommitTransition || op === DaveOp.MlsWelcome) {
        this.#onCommitOrWelcome(op, payload);
      }
    } catch (error) {
      this.#logger.warn(`DAVE: opcode ${op} could not be processed (${String(error)}).`);
    }
  }

  /** A DAVE frame of an Opus frame, or null while the group is not established. */
  encrypt(frame: Uint8Array): Uint8Array | null {
    if (isSilenceFrame(frame)) return frame;
    if (!this.ready) return null;
    return this.#session.encryptOpus(Buffer.from(frame));
  }

  /** A DAVE frame of a VP8 frame, or null while the group is not established. */
  encryptVideo(frame: Uint8Array): Uint8Array | null {
    if (!this.ready) return null;
    // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- davey's const enums
    return this.#session.encrypt(MEDIA_VIDEO, CODEC_VP8, Buffer.from(frame));
  }

  /**
   * The Opus frame (or with `video` the video frame) of a member's DAVE frame, or null when it
   * cannot be decrypted (dropped).
   */
  decrypt(userId: string, frame: Uint8Array, video = false): Uint8Array | null {
    if (!video && isSilenceFrame(frame)) return frame;
    if (!this.#session.ready) return null;
    try {
      const plain = this.#session.decrypt(
        userId,
        // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- davey's const enum
        video ? MEDIA_VIDEO : MEDIA_AUDIO,
        Buffer.from(frame),
      );
      this.#failures = 0;
      return plain;
    } catch {
      if (!this.#reinitializing && this.#pending.size === 0) {
        this.#failures += 1;
        if (this.#failures > DECRYPT_FAILURE_TOLERANCE && this.#lastTransition !== null) {
          this.#logger.warn('DAVE: frames keep failing to decrypt; rejoining the group.');
          this.#invalidate(this.#lastTransition);
        }
      }
      return null;
    }
  }

  close(): void {
    try {
      this.#session.reset();
    } catch {
      // A session already reset has nothing left to free.
    }
  }

  #onCommitOrWelcome(op: number, payload: Buffer): void {
    if (payload.length < 2) return;
    const transitionId = payload.readUInt16BE(0);
    const message = payload.subarray(2);
    try {
      if (op === DaveOp.MlsWelcome) this.#session.processWelcome(message);
      else this.#session.processCommit(message);
    } catch (error) {
      this.#logger.warn(
        `DAVE: the ${op === DaveOp.MlsWelcome ? 'welcome' : 'commit'} of transition ${transitionId} does not apply (${String(error)}); asking to be added again.`,
      );
      this.#invalidate(transitionId);
      return;
    }
    this.#reinitializing = false;
    if (transitionId === 0) {
      this.#lastTransition = 0;
      this.#markTransitioned();
    } else {
      this.#remember(transitionId, this.#version);
      this.#send.json(DaveOp.TransitionReady, { transition_id: transitionId });
    }
  }

  #remember(transitionId: number, version: number): void {
    if (this.#pending.size >= MAX_PENDING_TRANSITIONS && !this.#pending.has(transitionId)) {
      const oldest = this.#pending.keys().next().value;
      if (oldest !== undefined) this.#pending.delete(oldest);
    }
    this.#pending.set(transitionId, version);
  }

  #execute(transitionId: number): void {
    const version = this.#pending.get(transitionId);
    if (version === undefined) {
      this.#logger.verbose(`DAVE: transition ${transitionId} was not prepared here; ignored.`);
      return;
    }
    this.#pending.delete(transitionId);
    this.#version = version;
    this.#lastTransition = transitionId;
    this.#reinitializing = false;
    this.#markTransitioned();
  }

  #markTransitioned(): void {
    this.#transitioned = true;
    const ready = this.#session.ready;
    this.#logger.verbose(
      `DAVE: transition ${String(this.#lastTransition)} executed; ${ready ? `group established (epoch ${String(this.#session.epoch)}, privacy code "${this.#session.voicePrivacyCode}")` : 'no group yet'}.`,
    );
    if (ready) this.#onEstablished();
  }

  #invalidate(transitionId: number): void {
    if (this.#reinitializing) return;
    this.#reinitializing = true;
    this.#failures = 0;
    this.#send.json(DaveOp.MlsInvalidCommitWelcome, { transition_id: transitionId });
    this.#reinit();
  }

  #reinit(): void {
    this.#transitioned = false;
    this.#pending.clear();
    this.#session.reinit(this.#version, this.#userId, this.#channelId);
    this.#sendKeyPackage();
  }

  #sendKeyPackage(): void {
    this.#send.binary(DaveOp.MlsKeyPackage, this.#session.getSerializedKeyPackage());
  }
}

function transitionIdOf(d: Record<string, unknown>): number | null {
  const id = d['transition_id'];
  return Number.isInteger(id) && (id as number) >= 0 && (id as number) <= 0xffff
    ? (id as number)
    : null;
}
