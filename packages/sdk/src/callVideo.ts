/**
 * A call's video (`Call`'s other media half, Node only; Guildhall's addition to the reference
 * SDK, whose calls carry audio only): the player's streams started and stopped (op 12 on the
 * voice connection, and the camera in op 4's `self_video`), its frames sent, and the others'
 * streams and frames as their op 12 and packets say. The packets themselves are
 * platform/nodeVoiceVideo.ts's.
 *
 * @module
 */
import type { CallMedia } from './callAudio.js';
import type { ClientCore } from './core.js';
import type {
  VoiceConnection,
  VideoFrameInfo,
  VideoSendResult,
  VideoStreamState,
  VideoStreamType,
} from './voiceTransport.js';

/** What starting or stopping a stream did: `ok`, or why it could not. */
export type VideoStartResult = 'ok' | 'notConnected' | 'noVideoCodec';

export class CallVideo {
  readonly #core: ClientCore;
  readonly #call: CallMedia;
  readonly #cameraChanged: () => void;
  /** The other participants' streams, as their op 12 last said. */
  readonly #streams = new Map<string, readonly VideoStreamState[]>();
  /** Participants whose video the player does not want (each new connection is told). */
  readonly #unwanted = new Set<string>();
  #camera = false;

  /** `cameraChanged`: the camera went on or off, for op 4's `self_video`. */
  constructor(core: ClientCore, call: CallMedia, cameraChanged: () => void) {
    this.#core = core;
    this.#call = call;
    this.#cameraChanged = cameraChanged;
  }

  /** Whether the player's camera is on. */
  get camera(): boolean {
    return this.#camera;
  }

  set(stream: VideoStreamType, active: boolean): VideoStartResult {
    const connection = this.#call.connection;
    if (connection === null || !this.#call.mediaUp) return 'notConnected';
    if (!connection.setVideoActive(stream, active)) return 'noVideoCodec';
    if (stream === 'video' && this.#camera !== active) {
      this.#camera = active;
      this.#cameraChanged();
    }
    return 'ok';
  }

  send(frame: Uint8Array, stream: VideoStreamType): VideoSendResult {
    return this.#call.connection?.sendVideo(stream, frame) ?? 'notConnected';
  }

  streamsOf(userId: string): readonly VideoStreamState[] {
    return this.#streams.get(userId) ?? [];
  }

  setWanted(userId: string, wanted: boolean): void {
    if (wanted) this.#unwanted.delete(userId);
    else this.#unwanted.add(userId);
    this.#call.connection?.setVideoWanted(userId, wanted);
  }

  /**
   * A new voice connection (the call's first, or another voice server's): it is told what the
   * player does not want; the player's streams start stopped on it (the camera too, in op 4).
   */
  attach(connection: VoiceConnection): void {
    for (const userId of this.#unwanted) connection.setVideoWanted(userId, false);
    this.#streams.clear();
    if (this.#camera) {
      this.#camera = false;
      this.#cameraChanged();
    }
  }

  /** A participant's op 12: kept, and the game told. */
  onStreams(userId: string, streams: readonly VideoStreamState[]): void {
    this.#streams.set(userId, streams);
    this.#core.invoke(this.#call.callbacks.videoStreamsChanged, userId, streams);
  }

  onFrame(userId: string, frame: Uint8Array, info: VideoFrameInfo): void {
    this.#core.invoke(this.#call.callbacks.videoFrameReceived, userId, frame, info);
  }

  /** A participant left the call. */
  forget(userId: string): void {
    this.#streams.delete(userId);
  }

  /** The call ended: nothing is sent, and nothing known of the others. */
  close(): void {
    this.#camera = false;
    this.#streams.clear();
    this.#unwanted.clear();
  }
}
