/**
 * The Node build's voice connection (loaded on a client's first call, never by the browser
 * build): the voice WebSocket (`?v=8`), the media socket (UDP) and both encryptions.
 *
 * Hello (8) → Identify (0, offering DAVE) → Ready (2: ssrc, ip, port, modes) → IP discovery on
 * the media socket → Select Protocol (1) → Session Description (4: mode, secret key, DAVE version)
 * → DAVE (`nodeVoiceDave.ts`) → media. Heartbeats (3/6) carry `seq_ack`, the last sequence number
 * the server sent; a dropped WebSocket resumes (7 → 9) keeping the media socket and the group.
 *
 * Here: `NodeVoiceConnection`, what the messages mean and the connection's phases; the WebSocket
 * is nodeVoiceSocket.ts, the media socket and the received packets nodeVoiceMedia.ts.
 *
 * @module
 */
import OpusScript from 'opusscript';
import { CallError } from '../enums.js';
import type {
  OpenVoiceConnection,
  OpusCodec,
  OpusSendResult,
  VoiceModule,
  VoiceConnectOptions,
  VoiceConnection,
  VoiceConnectionStats,
} from '../voiceTransport.js';
import { DaveDriver, DaveOp } from './nodeVoiceDave.js';
import {
  MediaSocket,
  VoiceReceiver,
  randomBits,
  readyAddress,
  type Transport,
} from './nodeVoiceMedia.js';
import {
  OPUS_SILENCE_FRAME,
  RtpSender,
  chooseTransportMode,
  isSilenceFrame,
  type TransportMode,
} from './nodeVoiceRtp.js';
import { VoiceOp, VoiceSocket } from './nodeVoiceSocket.js';

export { VoiceOp } from './nodeVoiceSocket.js';

/** Close codes after which the platform refused the player (`CallError.Forbidden`). */
const FORBIDDEN_CLOSE_CODES = new Set([4003, 4004, 4014]);
/** What the voice gateway's close codes mean (docs/voice.md), for the log line of an ended call. */
const CLOSE_MEANINGS: Readonly<Record<number, string>> = {
  4001: 'unknown opcode',
  4002: 'a frame the server could not decode',
  4003: 'not identified',
  4004: 'the voice token was refused',
  4005: 'identified twice',
  4006: 'the session is no longer valid',
  4009: 'heartbeats missed',
  4011: 'server not found',
  4012: 'unknown protocol',
  4014: 'the voice state left the call (moved, kicked, or joined elsewhere)',
  4015: 'the voice server crashed',
  4016: 'unknown encryption mode',
  4017: 'end-to-end encryption (DAVE) required',
  4020: 'a malformed request',
  4021: 'rate limited',
  4022: 'the call is full',
};
/** The voice gateway requires a DAVE version this build does not offer. */
const E2EE_REQUIRED_CLOSE_CODE = 4017;
/** Close codes after which the session can be resumed (others end the call). */
function resumable(code: number): boolean {
  return code < 4000 || code === 4015;
}

const MAX_RESUME_ATTEMPTS = 5;

type Phase =
  'opening' | 'identifying' | 'discovering' | 'selecting' | 'ready' | 'resuming' | 'closed';

/** Why a close that cannot be resumed ended the call: the error and the words. */
function closeFailure(code: number, reason: string, signaled: boolean): [CallError, string] {
  const meaning = CLOSE_MEANINGS[code];
  const said =
    (meaning === undefined ? '' : `: ${meaning}`) +
    (reason === '' ? '' : ` ("${reason.slice(0, 120)}")`);
  if (code === E2EE_REQUIRED_CLOSE_CODE) {
    return [
      CallError.SignalingConnectionFailed,
      `the voice server requires end-to-end encryption (DAVE) of a version this SDK does not offer (it offers v${DaveDriver.maxVersion}); close 4017${said}`,
    ];
  }
  if (FORBIDDEN_CLOSE_CODES.has(code)) {
    return [CallError.Forbidden, `the voice server refused the player (close ${code}${said})`];
  }
  return signaled
    ? [CallError.SignalingUnexpectedClose, `the voice WebSocket closed (close ${code}${said})`]
    : [
        CallError.SignalingConnectionFailed,
        `the voice WebSocket closed before Ready (close ${code}${said})`,
      ];
}

/** What the connection sends when its WebSocket opens: Resume (`resumeSeq`), or Identify. */
function greeting(
  options: VoiceConnectOptions,
  resumeSeq: number | null,
): { op: number; d: Record<string, unknown> } {
  const { serverId, sessionId, token } = options;
  if (resumeSeq !== null) {
    return {
      op: VoiceOp.Resume,
      d: { server_id: serverId, session_id: sessionId, token, seq_ack: resumeSeq },
    };
  }
  return {
    op: VoiceOp.Identify,
    d: {
      server_id: serverId,
      user_id: options.userId,
      session_id: sessionId,
      token,
      max_dave_protocol_version: DaveDriver.maxVersion,
    },
  };
}

/** The connection's DAVE session at `version`, speaking through its voice WebSocket. */
function startDave(
  options: VoiceConnectOptions,
  socket: VoiceSocket,
  { version, established }: { version: number; established: () => void },
): DaveDriver {
  return new DaveDriver({
    userId: options.userId,
    channelId: options.channelId,
    version,
    logger: options.logger,
    send: {
      json: (op, d) => {
        socket.sendJson(op, d);
      },
      binary: (op, payload) => {
        socket.sendBinary(op, payload);
      },
    },
    onEstablished: established,
  });
}

/** Session Description's (4) mode, key and DAVE version; or why it cannot be used. */
function sessionKeys(
  data: Record<string, unknown>,
  pendingMode: TransportMode | null,
): { mode: TransportMode; key: Uint8Array; daveVersion: number } | string {
  const { mode, secret_key: secretKey, dave_protocol_version: daveVersion } = data;
  if (
    mode !== pendingMode ||
    !Array.isArray(secretKey) ||
    secretKey.length !== 32 ||
    !secretKey.every((b) => Number.isInteger(b) && (b as number) >= 0 && (b as number) <= 255)
  ) {
    return 'the voice server sent a malformed Session Description';
  }
  if (!Number.isInteger(daveVersion) || (daveVersion as number) < 1) {
    // Calls are end-to-end encrypted only: no audio goes out under transport encryption alone.
    return 'the voice server offered no end-to-end encryption (DAVE version 0); Guildhall calls are end-to-end encrypted only';
  }
  return {
    mode: mode as TransportMode,
    key: Uint8Array.from(secretKey as number[]),
    daveVersion: daveVersion as number,
  };
}

export const openVoiceConnection: OpenVoiceConnection = (options) =>
  new NodeVoiceConnection(options);

/** 48 kHz stereo, 20 ms: the platform's Opus. */
const FRAME_SAMPLES = 960;

/** Opus through opusscript (WebAssembly): PCM in `sendPcmFrame`, PCM out for the audio callbacks. */
export function createOpusCodec(): OpusCodec {
  const opus = new OpusScript(48000, 2, OpusScript.Application.AUDIO);
  return {
    encode(pcm) {
      return opus.encode(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength), FRAME_SAMPLES);
    },
    decode(frame) {
      const pcm = opus.decode(Buffer.from(frame));
      const samples = new Int16Array(pcm.length >> 1);
      for (let i = 0; i < samples.length; i += 1) samples[i] = pcm.readInt16LE(i * 2);
      return samples;
    },
    close() {
      opus.delete();
    },
  };
}

/** The module the Node platform loads on a client's first call. */
export const nodeVoice: VoiceModule = { open: openVoiceConnection, createOpusCodec };

class NodeVoiceConnection implements VoiceConnection {
  readonly #options: VoiceConnectOptions;
  #phase: Phase = 'opening';
  readonly #socket: VoiceSocket;
  #retry: ReturnType<typeof setTimeout> | null = null;
  #resumeAttempts = 0;
  #media: MediaSocket | null = null;
  #pendingMode: TransportMode | null = null;
  #transport: Transport | null = null;
  #dave: DaveDriver | null = null;
  readonly #receiver: VoiceReceiver;
  #signaled = false;
  #connected = false;
  #speaking = false;
  readonly #stats: Omit<VoiceConnectionStats, 'privacyCode'> = {
    framesSent: 0,
    framesReceived: 0,
    packetsDropped: 0,
  };

  constructor(options: VoiceConnectOptions) {
    this.#options = options;
    options.logger.secret(options.token);
    this.#receiver = new VoiceReceiver(options, this.#stats, {
      transport: () => this.#transport,
      decrypt: (userId, payload) => this.#dave?.decrypt(userId, payload) ?? null,
      left: () => {
        this.#maybeConnected();
      },
    });
    const url = `${options.secure ? 'wss' : 'ws'}://${options.endpoint}/?v=8`;
    this.#socket = new VoiceSocket(url, options.logger, {
      opened: () => {
        this.#onOpen();
      },
      json: (op, data) => {
        this.#onJson(op, data);
      },
      binary: (op, payload) => {
        this.#dave?.onBinary(op, payload, this.#receiver.clientIds());
      },
      closed: (code, reason) => {
        this.#onClose(code, reason);
      },
      unusable: (address, error) => {
        const why = `the voice address ${address} is not usable (${String(error)})`;
        this.#fail(CallError.SignalingConnectionFailed, 0, why);
      },
    });
    this.#socket.open();
  }

  sendOpus(frame: Uint8Array): OpusSendResult {
    const media = this.#media;
    const transport = this.#transport;
    if (this.#phase === 'closed' || media === null || transport === null || !this.#connected) {
      return 'notConnected';
    }
    const payload = this.#dave?.encrypt(frame) ?? null;
    if (payload === null) return 'e2eePending';
    if (!isSilenceFrame(frame)) this.setSpeaking(true);
    media.send(transport.sender.packet(payload));
    this.#stats.framesSent += 1;
    return 'sent';
  }

  setSpeaking(speaking: boolean): void {
    const media = this.#media;
    if (this.#speaking === speaking || media === null || this.#transport === null) return;
    this.#speaking = speaking;
    const ssrc = media.address.ssrc;
    this.#socket.sendJson(VoiceOp.Speaking, { speaking: speaking ? 1 : 0, delay: 0, ssrc });
    if (!speaking) {
      // The platform's clients end a burst with silence frames, so receivers stop interpolating.
      for (let i = 0; i < 5; i += 1) this.sendOpus(OPUS_SILENCE_FRAME);
    }
  }

  stats(): VoiceConnectionStats {
    return { ...this.#stats, privacyCode: this.#dave?.privacyCode ?? '' };
  }

  participantsChanged(): void {
    this.#maybeConnected();
  }

  close(): void {
    this.#end();
  }

  // ── The voice WebSocket's messages ────────────────────────────────────────────────────────

  #onOpen(): void {
    const resuming = this.#phase === 'resuming';
    const { op, d } = greeting(this.#options, resuming ? this.#socket.seq : null);
    this.#socket.sendJson(op, d);
    if (!resuming) this.#phase = 'identifying';
  }

  #onClose(code: number, reason: string): void {
    if (this.#phase === 'closed') return;
    const established = this.#phase === 'ready' || this.#phase === 'resuming';
    if (established && resumable(code) && this.#resumeAttempts < MAX_RESUME_ATTEMPTS) {
      this.#resumeAttempts += 1;
      const first = this.#phase === 'ready';
      this.#phase = 'resuming';
      if (first) this.#options.events.reconnecting(code);
      const delay = first ? 0 : Math.min(5000, 250 * 2 ** this.#resumeAttempts);
      this.#retry = setTimeout(() => {
        this.#retry = null;
        this.#socket.open();
      }, delay);
      return;
    }
    const [error, why] = closeFailure(code, reason, this.#signaled);
    this.#fail(error, code, why);
  }

  #onJson(op: number, data: Record<string, unknown>): void {
    switch (op) {
      case VoiceOp.Ready:
        this.#onReady(data);
        break;
      case VoiceOp.SessionDescription:
        this.#onSessionDescription(data);
        break;
      case VoiceOp.Resumed:
        if (this.#phase === 'resuming') {
          this.#phase = 'ready';
          this.#resumeAttempts = 0;
          this.#speaking = false;
          this.#options.events.resumed();
        }
        break;
      case VoiceOp.Speaking:
      case VoiceOp.ClientsConnect:
      case VoiceOp.ClientDisconnect:
        this.#receiver.onJson(op, data);
        break;
      case DaveOp.PrepareTransition:
      case DaveOp.ExecuteTransition:
      case DaveOp.PrepareEpoch:
        this.#dave?.onJson(op, data);
        break;
      default:
        this.#options.logger.verbose(`Voice: opcode ${String(op)} ignored.`);
    }
  }

  #onReady(data: Record<string, unknown>): void {
    if (this.#phase !== 'identifying') return;
    const address = readyAddress(data);
    if (address === null) {
      this.#fail(CallError.SignalingConnectionFailed, 0, 'the voice server sent a malformed Ready');
      return;
    }
    this.#signaled = true;
    this.#options.events.signaling();
    this.#media = new MediaSocket(address, this.#receiver, {
      discovered: (ip, port) => {
        this.#onDiscovered(ip, port);
      },
      failed: (reason) => {
        this.#fail(CallError.VoiceConnectionFailed, 0, reason);
      },
    });
    this.#phase = 'discovering';
  }

  /** IP discovery answered: Select Protocol with a transport encryption both sides have. */
  #onDiscovered(address: string, port: number): void {
    const modes = this.#media?.address.modes ?? [];
    const mode = chooseTransportMode(modes);
    if (mode === null) {
      this.#fail(
        CallError.VoiceConnectionFailed,
        0,
        `the voice server offers no transport encryption this SDK has (${modes.join(', ')})`,
      );
      return;
    }
    this.#phase = 'selecting';
    this.#socket.sendJson(VoiceOp.SelectProtocol, {
      protocol: 'udp',
      data: { address, port, mode },
    });
    this.#pendingMode = mode;
  }

  #onSessionDescription(data: Record<string, unknown>): void {
    if (this.#phase !== 'selecting' || this.#media === null) return;
    const keys = sessionKeys(data, this.#pendingMode);
    if (typeof keys === 'string') {
      this.#fail(CallError.SignalingConnectionFailed, 0, keys);
      return;
    }
    const { mode, key } = keys;
    const ssrc = this.#media.address.ssrc;
    this.#transport = { mode, key, sender: new RtpSender({ ssrc, mode, key, random: randomBits }) };
    this.#phase = 'ready';
    this.#dave = startDave(this.#options, this.#socket, {
      version: Math.min(keys.daveVersion, DaveDriver.maxVersion),
      established: () => {
        this.#maybeConnected();
      },
    });
    this.#maybeConnected();
  }

  /** Connected once media can flow: the group is established, or nobody else is in the call. */
  #maybeConnected(): void {
    if (
      this.#connected ||
      this.#phase === 'closed' ||
      this.#transport === null ||
      this.#dave === null
    )
      return;
    if (!this.#dave.ready && (this.#receiver.hasClients || this.#options.othersInCall())) return;
    this.#connected = true;
    this.#options.events.connected();
  }

  // ── Ending ────────────────────────────────────────────────────────────────────────────────

  #fail(error: CallError, detail: number, reason: string): void {
    if (this.#phase === 'closed') return;
    this.#end();
    this.#options.events.closed(error, detail, reason);
  }

  #end(): void {
    if (this.#phase === 'closed') return;
    this.#phase = 'closed';
    this.#connected = false;
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#retry = null;
    this.#socket.close();
    this.#media?.close();
    this.#media = null;
    this.#dave?.close();
    this.#dave = null;
    this.#transport = null;
  }
}
