/**
 * The Node build's voice connection (loaded on a client's first call, never by the browser
 * build): the voice WebSocket (`?v=8`), the media socket (UDP) and both encryptions.
 *
 * Hello (8) → Identify (0, offering DAVE) → Ready (2: ssrc, ip, port, modes) → IP discovery on
 * the media socket → Select Protocol (1) → Session Description (4: mode, secret key, DAVE version)
 * → DAVE (`nodeVoiceDave.ts`) → media. Heartbeats (3/6) carry `seq_ack`, the last sequence number
 * the server sent; a dropped WebSocket resumes (7 → 9) keeping the media socket and the group.
 *
 * Here: `NodeVoiceConnection`, what the messages mean and the connection's phases; the handshake's
 * messages are nodeVoiceHandshake.ts, the WebSocket nodeVoiceSocket.ts, the media socket and the
 * received packets nodeVoiceMedia.ts, video nodeVoiceVideo.ts.
 *
 * @module
 */
import OpusScript from 'opusscript';
import { CallError } from '../enums.js';
import type {
  OpenVoiceConnection,
  OpusCodec,
  OpusSendResult,
  VideoSendResult,
  VideoStreamType,
  VoiceModule,
  VoiceConnectOptions,
  VoiceConnection,
  VoiceConnectionStats,
} from '../voiceTransport.js';
import { DaveDriver, DaveOp } from './nodeVoiceDave.js';
import { closeFailure, greeting, resumable, sessionKeys, startDave } from './nodeVoiceHandshake.js';
import { MediaSocket, VoiceReceiver, readyAddress, type Transport } from './nodeVoiceMedia.js';
import { chooseTransportMode, type TransportMode } from './nodeVoiceRtp.js';
import { MediaSender } from './nodeVoiceSend.js';
import { VoiceOp, VoiceSocket } from './nodeVoiceSocket.js';
import { OFFERED_CODECS } from './nodeVoiceVideo.js';
import { noMediaYet } from '../voiceValues.js';

export { VoiceOp } from './nodeVoiceSocket.js';

const MAX_RESUME_ATTEMPTS = 5;

type Phase =
  'opening' | 'identifying' | 'discovering' | 'selecting' | 'ready' | 'resuming' | 'closed';

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
  #sender: MediaSender | null = null;
  readonly #receiver: VoiceReceiver;
  #signaled = false;
  #connected = false;
  readonly #stats = noMediaYet();

  constructor(options: VoiceConnectOptions) {
    this.#options = options;
    options.logger.secret(options.token);
    this.#receiver = new VoiceReceiver(options, this.#stats, {
      transport: () => this.#transport,
      decrypt: (userId, payload, video) => this.#dave?.decrypt(userId, payload, video) ?? null,
      // Said once the session is set up (op 15 before Identify would end it), and again then.
      sinkWants: (wants) => {
        if (this.#phase === 'ready') this.#socket.sendJson(VoiceOp.MediaSinkWants, wants);
      },
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
    return this.#sender?.sendOpus(frame) ?? 'notConnected';
  }

  setSpeaking(speaking: boolean): void {
    this.#sender?.setSpeaking(speaking);
  }

  setVideoActive(stream: VideoStreamType, active: boolean): boolean {
    return this.#sender?.setVideoActive(stream, active) ?? false;
  }

  sendVideo(stream: VideoStreamType, frame: Uint8Array): VideoSendResult {
    return this.#sender?.sendVideo(stream, frame) ?? 'notConnected';
  }

  setVideoWanted(userId: string, wanted: boolean): void {
    this.#receiver.setVideoWanted(userId, wanted);
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
          this.#sender?.resumed();
          this.#receiver.repeatWants();
          this.#options.events.resumed();
        }
        break;
      case VoiceOp.Speaking:
      case VoiceOp.Video:
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
      codecs: OFFERED_CODECS,
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
    this.#transport = { mode, key };
    this.#phase = 'ready';
    const dave = startDave(this.#options, this.#socket, {
      version: Math.min(keys.daveVersion, DaveDriver.maxVersion),
      established: () => {
        this.#maybeConnected();
      },
    });
    this.#dave = dave;
    this.#sender = new MediaSender({
      media: this.#media,
      socket: this.#socket,
      transport: this.#transport,
      videoCodec: data['video_codec'],
      dave,
      connected: () => this.#connected && this.#phase !== 'closed',
      stats: this.#stats,
    });
    this.#receiver.repeatWants();
    this.#maybeConnected();
  }

  /** Connected once media can flow: the group is established, or nobody else is in the call. */
  #maybeConnected(): void {
    // The transport and DAVE are set up together (Session Description).
    if (this.#connected || this.#phase === 'closed' || this.#dave === null) return;
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
    this.#sender = null;
  }
}
