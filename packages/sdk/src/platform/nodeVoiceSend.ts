/**
 * What a Node voice connection (nodeVoice.ts) sends once Session Description set its transport up:
 * the player's audio (an Opus frame per RTP packet, Speaking (5) around each burst) and video
 * (nodeVoiceVideo.ts), each frame DAVE-encrypted first and nothing sent before the connection is
 * Connected.
 *
 * @module
 */
import type {
  OpusSendResult,
  VideoSendResult,
  VideoStreamType,
  VoiceConnectionStats,
} from '../voiceTransport.js';
import type { DaveDriver } from './nodeVoiceDave.js';
import { randomBits, type MediaSocket, type Transport } from './nodeVoiceMedia.js';
import { OPUS_SILENCE_FRAME, RtpSender, TransportSealer, isSilenceFrame } from './nodeVoiceRtp.js';
import { VoiceOp, type VoiceSocket } from './nodeVoiceSocket.js';
import { VideoSender } from './nodeVoiceVideo.js';

/** Silence frames that end a burst: the platform's clients send five, so receivers stop interpolating. */
const TRAILING_SILENCE_FRAMES = 5;

/** What the sender needs of its connection. */
export interface MediaSenderDeps {
  /** The media socket: Ready's address (the player's ssrcs) and where packets go. */
  media: MediaSocket;
  /** The voice WebSocket: Speaking (5) and Video (12). */
  socket: VoiceSocket;
  /** Session Description's transport and `video_codec`. */
  transport: Transport;
  videoCodec: unknown;
  dave: DaveDriver;
  /** Whether media can flow (Connected, not closed). */
  connected: () => boolean;
  stats: Pick<VoiceConnectionStats, 'framesSent' | 'videoFramesSent'>;
}

/** The player's audio and video on a set-up connection. */
export class MediaSender {
  readonly #deps: MediaSenderDeps;
  readonly #audio: RtpSender;
  readonly #video: VideoSender;
  #speaking = false;

  constructor(deps: MediaSenderDeps) {
    this.#deps = deps;
    const { ssrc, streams } = deps.media.address;
    const sealer = new TransportSealer(deps.transport.mode, deps.transport.key);
    this.#audio = new RtpSender({ ssrc, sealer, random: randomBits });
    const setup = { audioSsrc: ssrc, streams, codec: deps.videoCodec, sealer, random: randomBits };
    this.#video = new VideoSender(setup, {
      connected: deps.connected,
      sendVideo: (payload) => {
        deps.socket.sendJson(VoiceOp.Video, payload);
      },
      encrypt: (frame) => deps.dave.encryptVideo(frame),
      sendPacket: (packet) => {
        deps.media.send(packet);
      },
      sent: () => {
        deps.stats.videoFramesSent += 1;
      },
    });
  }

  sendOpus(frame: Uint8Array): OpusSendResult {
    if (!this.#deps.connected()) return 'notConnected';
    const payload = this.#deps.dave.encrypt(frame);
    if (payload === null) return 'e2eePending';
    if (!isSilenceFrame(frame)) this.setSpeaking(true);
    this.#deps.media.send(this.#audio.packet(payload));
    this.#deps.stats.framesSent += 1;
    return 'sent';
  }

  /** Speaking (5): the start or end of a burst; the end is followed by silence frames. */
  setSpeaking(speaking: boolean): void {
    if (this.#speaking === speaking) return;
    this.#speaking = speaking;
    const { ssrc } = this.#deps.media.address;
    this.#deps.socket.sendJson(VoiceOp.Speaking, { speaking: speaking ? 1 : 0, delay: 0, ssrc });
    if (!speaking) {
      for (let i = 0; i < TRAILING_SILENCE_FRAMES; i += 1) this.sendOpus(OPUS_SILENCE_FRAME);
    }
  }

  /**
   * Resumed: the server forgot the player was speaking; what the player sends of video is said
   * again (op 12 sent while the WebSocket was down was lost).
   */
  resumed(): void {
    this.#speaking = false;
    if (this.#video.sending) this.#deps.socket.sendJson(VoiceOp.Video, this.#video.videoPayload());
  }

  setVideoActive(stream: VideoStreamType, active: boolean): boolean {
    return this.#video.setActive(stream, active);
  }

  sendVideo(stream: VideoStreamType, frame: Uint8Array): VideoSendResult {
    return this.#video.send(stream, frame);
  }
}
