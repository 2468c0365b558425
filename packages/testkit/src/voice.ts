/**
 * A person in a guild voice channel: op 4 on their gateway session as the client sends it, the
 * platform's VOICE_STATE_UPDATE and VOICE_SERVER_UPDATE in answer, and (in Node) speaking and
 * hearing 16-bit PCM through the Social SDK's voice client (`@guildhall/social-sdk/voice`: the
 * voice WebSocket, the media socket, transport encryption and DAVE), loaded on first use.
 *
 * @module
 */
import type { GatewayVoiceServerUpdateDispatchData, APIVoiceState } from 'discord-api-types/v10';
import type { OpusCodec, VoiceConnection } from '@guildhall/social-sdk/voice';
import { EventLog, type WaitOptions } from './eventLog.js';
import type { PersonSession } from './session.js';

/** 20 ms of 48 kHz stereo: 960 samples per channel, interleaved. */
export const PCM_FRAME_SAMPLES = 1920;
/** One frame every 20 ms, as a client sends them. */
const FRAME_MS = 20;

/** A person's seat in a call: where they are, and the way to its audio. */
export interface VoiceSeat {
  /** Their voice state as the platform announced it. */
  state: APIVoiceState;
  /** The voice server the platform gave them (VOICE_SERVER_UPDATE). */
  server: GatewayVoiceServerUpdateDispatchData;
}

/** PCM heard from one speaker: samples as decoded, 48 kHz stereo interleaved. */
export interface HeardAudio {
  userId: string;
  pcm: Int16Array;
}

/** What joining needs of a person. */
export interface VoiceActor {
  readonly id: string;
  connect(): Promise<PersonSession>;
}

/** A person's call in one voice channel. Leave it with {@link VoiceCall.leave}. */
export class VoiceCall {
  /** The seat the platform gave. */
  readonly seat: VoiceSeat;
  /** Audio frames heard, decoded, one entry per 20 ms frame. */
  readonly heard = new EventLog<HeardAudio>(
    (a) => `${String(a.pcm.length)} samples from ${a.userId}`,
  );
  readonly #session: PersonSession;
  readonly #userId: string;
  #audio: Promise<{ connection: VoiceConnection; codec: OpusCodec }> | null = null;

  /** @internal Made by {@link joinVoice}. */
  constructor(session: PersonSession, userId: string, seat: VoiceSeat) {
    this.#session = session;
    this.#userId = userId;
    this.seat = seat;
  }

  /**
   * Connects the call's audio (the SDK's voice client) if not yet connected; resolves once media
   * flows end-to-end encrypted. Node only.
   */
  connectAudio(): Promise<{ connection: VoiceConnection; codec: OpusCodec }> {
    this.#audio ??= this.#openAudio();
    return this.#audio;
  }

  async #openAudio() {
    const voice = await import('@guildhall/social-sdk/voice');
    const codec = voice.createOpusCodec();
    const others = () =>
      this.#session.dispatches.events.some(
        (d) =>
          d.t === 'VOICE_STATE_UPDATE' &&
          (d.d as APIVoiceState).user_id !== this.#userId &&
          (d.d as APIVoiceState).channel_id === this.seat.state.channel_id,
      );
    return new Promise<{ connection: VoiceConnection; codec: OpusCodec }>((resolve, reject) => {
      const connection = voice.openVoiceConnection({
        endpoint: this.seat.server.endpoint ?? '',
        secure: false,
        serverId: this.seat.server.guild_id,
        channelId: this.seat.state.channel_id ?? '',
        userId: this.#userId,
        sessionId: this.seat.state.session_id,
        token: this.seat.server.token,
        logger: new voice.Logger(),
        othersInCall: others,
        events: {
          signaling: () => undefined,
          connected: () => {
            resolve({ connection, codec });
          },
          reconnecting: () => undefined,
          resumed: () => undefined,
          closed: (_error, detail, reason) => {
            reject(new Error(`the voice connection closed (${String(detail)}): ${reason}`));
          },
          clients: () => undefined,
          speaking: () => undefined,
          frame: (userId, frame) => {
            this.heard.push({ userId, pcm: codec.decode(frame) });
          },
          // A scripted person speaks and listens; others' video is not theirs to watch.
          videoStreams: () => undefined,
          videoFrame: () => undefined,
        },
      });
    });
  }

  /**
   * Speaks 48 kHz stereo PCM (interleaved 16-bit samples), 20 ms a frame in real time; the last
   * frame is padded with silence. Resolves once every frame was sent.
   */
  async speak(pcm: Int16Array): Promise<void> {
    const { connection, codec } = await this.connectAudio();
    for (let start = 0; start < pcm.length; start += PCM_FRAME_SAMPLES) {
      const frame = new Int16Array(PCM_FRAME_SAMPLES);
      frame.set(pcm.subarray(start, Math.min(start + PCM_FRAME_SAMPLES, pcm.length)));
      const sent = connection.sendOpus(codec.encode(frame));
      if (sent !== 'sent')
        throw new Error(`the frame at sample ${String(start)} was not sent: ${sent}`);
      await new Promise((resolve) => setTimeout(resolve, FRAME_MS));
    }
    connection.setSpeaking(false);
  }

  /**
   * Hears `userId` until at least `samples` samples of theirs arrived (from when the audio was
   * connected); resolves with them joined.
   */
  async hear(userId: string, samples: number, options: WaitOptions = {}): Promise<Int16Array> {
    await this.connectAudio();
    let total = 0;
    await this.heard.waitFor(
      `${String(samples)} samples from ${userId}`,
      (a) => {
        if (a.userId === userId) total += a.pcm.length;
        return total >= samples;
      },
      options,
    );
    const frames = this.heard.events.filter((a) => a.userId === userId).map((a) => a.pcm);
    const out = new Int16Array(frames.reduce((n, f) => n + f.length, 0));
    let at = 0;
    for (const frame of frames) {
      out.set(frame, at);
      at += frame.length;
    }
    return out;
  }

  /** Leaves the channel (op 4 with no channel) and closes the audio; resolves once the platform says so. */
  async leave(options: WaitOptions = {}): Promise<APIVoiceState> {
    const audio = this.#audio;
    this.#audio = null;
    if (audio !== null) (await audio.catch(() => null))?.connection.close();
    const since = this.#session.dispatches.mark();
    this.#session.send(4, {
      guild_id: this.seat.server.guild_id,
      channel_id: null,
      self_mute: false,
      self_deaf: false,
    });
    const left = await this.#session.dispatches.waitFor(
      'VOICE_STATE_UPDATE leaving the channel',
      (d) =>
        d.t === 'VOICE_STATE_UPDATE' &&
        (d.d as APIVoiceState).user_id === this.#userId &&
        (d.d as APIVoiceState).channel_id === null,
      { ...options, since },
    );
    return left.d as APIVoiceState;
  }
}

/** Joins a guild voice channel: op 4, then the platform's voice state and voice server. */
export async function joinVoice(
  actor: VoiceActor,
  target: { guildId: string; channelId: string; selfMute?: boolean; selfDeaf?: boolean },
  options: WaitOptions = {},
): Promise<VoiceCall> {
  const session = await actor.connect();
  const since = session.dispatches.mark();
  session.send(4, {
    guild_id: target.guildId,
    channel_id: target.channelId,
    self_mute: target.selfMute ?? false,
    self_deaf: target.selfDeaf ?? false,
  });
  const waits = { ...options, since };
  const [state, server] = await Promise.all([
    session.dispatches.waitFor(
      `VOICE_STATE_UPDATE in ${target.channelId}`,
      (d) =>
        d.t === 'VOICE_STATE_UPDATE' &&
        (d.d as APIVoiceState).user_id === actor.id &&
        (d.d as APIVoiceState).channel_id === target.channelId,
      waits,
    ),
    session.dispatches.waitFor(
      `VOICE_SERVER_UPDATE of ${target.guildId}`,
      (d) =>
        d.t === 'VOICE_SERVER_UPDATE' &&
        (d.d as GatewayVoiceServerUpdateDispatchData).guild_id === target.guildId,
      waits,
    ),
  ]);
  return new VoiceCall(session, actor.id, {
    state: state.d as APIVoiceState,
    server: server.d as GatewayVoiceServerUpdateDispatchData,
  });
}
