/**
 * A call's audio (`Call`'s media half): what it sends (Opus frames, or PCM encoded here, through
 * self-mute, push-to-talk and voice activity detection) and what it delivers of the others'
 * (their frames, decoded to PCM and scaled by the volumes, unless deafened or locally muted).
 *
 * @module
 */
import { AudioModeType } from './enums.js';
import { validationError } from './errors.js';
import type { Logger } from './log.js';
import type { ClientCore } from './core.js';
import {
  MAX_OPUS_FRAME_BYTES,
  PCM_FRAME_SAMPLES,
  VADThresholdSettings,
  aboveThreshold,
  isSnowflake,
  isVolume,
  scale,
  type CallCallbacks,
  type UserAudioCaptured,
  type UserAudioCapturedCallback,
  type UserAudioReceived,
  type UserAudioReceivedCallback,
  type VoiceSettingsInit,
} from './voiceValues.js';
import type {
  OpusCodec,
  OpusFrameInfo,
  OpusSendResult,
  VoiceConnection,
  VoiceModule,
} from './voiceTransport.js';

/** Speaking (5) ends after this long without a frame. */
const SPEAKING_IDLE_MS = 200;

/** The PCM callbacks of `startCallWithAudioCallbacks`. */
export interface AudioCallbacks {
  received: UserAudioReceivedCallback;
  captured: UserAudioCapturedCallback;
}

/** What a call's audio reads of the client's voice (VoiceArea). */
export interface CallAudioHost {
  readonly core: ClientCore;
  readonly logger: Logger;
  readonly inputVolume: number;
  readonly outputVolume: number;
  voiceModule(operation: string): Promise<VoiceModule>;
  settingsChanged(change: Partial<VoiceSettingsInit>): void;
}

/** What a call's media (its audio, and its video: callVideo.ts) read of the call (callSession.ts). */
export interface CallMedia {
  /** The call's voice connection while it has one. */
  readonly connection: VoiceConnection | null;
  /** Whether media may flow: Connected, or Reconnecting. */
  readonly mediaUp: boolean;
  readonly selfMute: boolean;
  readonly selfDeaf: boolean;
  readonly callbacks: CallCallbacks;
}

export class CallAudio {
  readonly #host: CallAudioHost;
  readonly #call: CallMedia;
  readonly #pcm: AudioCallbacks | null;
  #audioMode: AudioModeType;
  #pttActive = false;
  /** Push-to-talk lets frames through: the key is held, or was released less than the delay ago. */
  #pttOpen = false;
  #pttReleaseDelayMs = 20;
  #pttTimer: ReturnType<typeof setTimeout> | null = null;
  #vad = new VADThresholdSettings();
  readonly #localMutes = new Set<string>();
  readonly #volumes = new Map<string, number>();
  #speakingTimer: ReturnType<typeof setTimeout> | null = null;
  #codec: OpusCodec | null = null;

  constructor(
    host: CallAudioHost,
    call: CallMedia,
    init: { audioMode: AudioModeType; pcm: AudioCallbacks | null },
  ) {
    this.#host = host;
    this.#call = call;
    this.#audioMode = init.audioMode;
    this.#pcm = init.pcm;
  }

  get audioMode(): AudioModeType {
    return this.#audioMode;
  }
  setAudioMode(audioMode: AudioModeType): Promise<void> {
    if (audioMode !== AudioModeType.VAD && audioMode !== AudioModeType.PTT) {
      return Promise.reject(
        validationError('Call.setAudioMode: the mode must be AudioModeType.VAD or PTT.'),
      );
    }
    this.#audioMode = audioMode;
    if (audioMode === AudioModeType.PTT && !this.#pttOpen) this.stopSpeaking();
    this.#host.settingsChanged({ audioMode });
    return Promise.resolve();
  }

  isLocallyMuted(userId: string): boolean {
    return this.#localMutes.has(userId);
  }
  setLocalMute(userId: string, mute: boolean): Promise<void> {
    if (!isSnowflake(userId))
      return Promise.reject(
        validationError(`Call.setLocalMute: ${JSON.stringify(userId)} is not a user id.`),
      );
    if (mute) this.#localMutes.add(userId);
    else this.#localMutes.delete(userId);
    return Promise.resolve();
  }

  volumeOf(userId: string): number {
    return this.#volumes.get(userId) ?? 100;
  }
  setParticipantVolume(userId: string, volume: number): Promise<void> {
    if (!isSnowflake(userId)) {
      return Promise.reject(
        validationError(`Call.setParticipantVolume: ${JSON.stringify(userId)} is not a user id.`),
      );
    }
    if (!isVolume(volume, 200)) {
      return Promise.reject(
        validationError('Call.setParticipantVolume: the volume must be a number from 0 to 200.'),
      );
    }
    this.#volumes.set(userId, volume);
    return Promise.resolve();
  }
  /** A participant left: their volume is forgotten. */
  forget(userId: string): void {
    this.#volumes.delete(userId);
  }

  get pttActive(): boolean {
    return this.#pttActive;
  }
  setPTTActive(active: boolean): Promise<void> {
    this.#pttActive = active;
    if (this.#pttTimer !== null) clearTimeout(this.#pttTimer);
    this.#pttTimer = null;
    if (active) {
      this.#pttOpen = true;
    } else if (this.#pttReleaseDelayMs === 0) {
      this.#closePtt();
    } else {
      this.#pttTimer = setTimeout(() => {
        this.#pttTimer = null;
        this.#closePtt();
      }, this.#pttReleaseDelayMs);
    }
    return Promise.resolve();
  }
  get pttReleaseDelay(): number {
    return this.#pttReleaseDelayMs;
  }
  setPTTReleaseDelay(releaseDelayMs: number): Promise<void> {
    if (!Number.isInteger(releaseDelayMs) || releaseDelayMs < 0 || releaseDelayMs > 2000) {
      return Promise.reject(
        validationError(
          'Call.setPTTReleaseDelay: the delay must be a whole number of ms from 0 to 2000.',
        ),
      );
    }
    this.#pttReleaseDelayMs = releaseDelayMs;
    return Promise.resolve();
  }

  get vad(): VADThresholdSettings {
    return new VADThresholdSettings({
      vadThreshold: this.#vad.vadThreshold(),
      automatic: this.#vad.automatic(),
    });
  }
  setVADThreshold(automatic: boolean, threshold: number): Promise<void> {
    if (typeof threshold !== 'number' || !(threshold >= -100 && threshold <= 0)) {
      return Promise.reject(
        validationError(
          'Call.setVADThreshold: the threshold must be a number of dBFS from -100 to 0.',
        ),
      );
    }
    this.#vad = new VADThresholdSettings({ vadThreshold: threshold, automatic });
    return Promise.resolve();
  }

  sendOpusFrame(frame: Uint8Array): OpusSendResult {
    if (
      !(frame instanceof Uint8Array) ||
      frame.length === 0 ||
      frame.length > MAX_OPUS_FRAME_BYTES
    ) {
      throw validationError(
        `Call.sendOpusFrame: a frame is 1 to ${MAX_OPUS_FRAME_BYTES} bytes of Opus.`,
      );
    }
    const blocked = this.#gate();
    const connection = this.#call.connection;
    if (blocked !== null || connection === null) return blocked ?? 'notConnected';
    const result = connection.sendOpus(frame);
    if (result === 'sent') this.#armSpeakingIdle();
    return result;
  }

  async sendPcmFrame(pcm: Int16Array): Promise<OpusSendResult | 'silent'> {
    if (!(pcm instanceof Int16Array) || pcm.length !== PCM_FRAME_SAMPLES) {
      throw validationError(
        `Call.sendPcmFrame: a frame is ${PCM_FRAME_SAMPLES} samples (20 ms of 48 kHz stereo, interleaved).`,
      );
    }
    const blocked = this.#gate();
    if (blocked !== null) return blocked;
    const data = scale(pcm, this.#host.inputVolume / 100);
    if (this.#pcm !== null) {
      const captured: UserAudioCaptured = {
        data,
        samplesPerChannel: PCM_FRAME_SAMPLES / 2,
        sampleRate: 48000,
        channels: 2,
      };
      this.#host.core.invoke(this.#pcm.captured, captured);
    }
    if (this.#audioMode === AudioModeType.VAD && !aboveThreshold(data, this.#vad)) return 'silent';
    const codec = await this.#opus();
    return this.sendOpusFrame(codec.encode(data));
  }

  /** A participant's frame: delivered as Opus, and as PCM with the audio callbacks. */
  onFrame(userId: string, frame: Uint8Array, info: OpusFrameInfo): void {
    if (this.#call.selfDeaf || this.#localMutes.has(userId)) return;
    this.#host.core.invoke(this.#call.callbacks.opusFrameReceived, userId, frame, info);
    if (this.#pcm === null) return;
    const pcm = this.#pcm;
    void this.#opus().then(
      (codec) => {
        let data: Int16Array;
        try {
          data = codec.decode(frame);
        } catch {
          this.#host.logger.verbose(`A frame of ${userId} is not Opus; not delivered.`);
          return;
        }
        const gain = (this.volumeOf(userId) / 100) * (this.#host.outputVolume / 100);
        const received: UserAudioReceived = {
          userId,
          data: gain === 1 ? data : scale(data, gain),
          samplesPerChannel: data.length / 2,
          sampleRate: 48000,
          channels: 2,
          shouldMute: false,
        };
        this.#host.core.invoke(pcm.received, received);
      },
      (error: unknown) => {
        this.#host.logger.warn(`The Opus decoder could not load: ${String(error)}`);
      },
    );
  }

  stopSpeaking(): void {
    if (this.#speakingTimer !== null) clearTimeout(this.#speakingTimer);
    this.#speakingTimer = null;
    this.#call.connection?.setSpeaking(false);
  }

  /** The call ended: timers stopped, the codec released. */
  close(): void {
    for (const timer of [this.#pttTimer, this.#speakingTimer])
      if (timer !== null) clearTimeout(timer);
    this.#pttTimer = null;
    this.#speakingTimer = null;
    this.#codec?.close();
    this.#codec = null;
  }

  /** Why a frame may not be sent now, or null. */
  #gate(): OpusSendResult | null {
    if (this.#call.connection === null || !this.#call.mediaUp) return 'notConnected';
    if (this.#call.selfMute) return 'muted';
    if (this.#audioMode === AudioModeType.PTT && !this.#pttOpen) return 'pttInactive';
    return null;
  }

  #closePtt(): void {
    this.#pttOpen = false;
    if (this.#audioMode === AudioModeType.PTT) this.stopSpeaking();
  }

  #armSpeakingIdle(): void {
    if (this.#speakingTimer !== null) clearTimeout(this.#speakingTimer);
    this.#speakingTimer = setTimeout(() => {
      this.#speakingTimer = null;
      this.#call.connection?.setSpeaking(false);
    }, SPEAKING_IDLE_MS);
  }

  async #opus(): Promise<OpusCodec> {
    if (this.#codec === null)
      this.#codec = (await this.#host.voiceModule('Call.sendPcmFrame')).createOpusCodec();
    return this.#codec;
  }
}
