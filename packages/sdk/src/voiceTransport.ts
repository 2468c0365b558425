/**
 * What a call (`voice.ts`, shared by both builds) asks of a platform's voice connection: the
 * voice WebSocket, the media socket, transport encryption and DAVE. Only types live here; the
 * Node build's connection is `platform/nodeVoice.ts`, loaded on the first call. The browser build
 * has none (no UDP in a page), so its calls reject with `VoiceNotAvailableError`.
 *
 * @module
 */
import type { CallError } from './enums.js';
import type { Logger } from './log.js';

/** Where and as whom to connect: VOICE_SERVER_UPDATE's endpoint and token, the voice state's session. */
export interface VoiceConnectOptions {
  /** `host:port`, no scheme (VOICE_SERVER_UPDATE `endpoint`). */
  endpoint: string;
  /** `wss` (the API base is https) or `ws`. */
  secure: boolean;
  /** Identify's `server_id`: the guild id, or for a lobby call the lobby id. */
  serverId: string;
  /** The call's channel (the lobby id): DAVE's group. */
  channelId: string;
  userId: string;
  /** The gateway session's id (the player's own VOICE_STATE_UPDATE `session_id`). */
  sessionId: string;
  /** VOICE_SERVER_UPDATE `token`: secret, never logged. */
  token: string;
  logger: Logger;
  events: VoiceConnectionEvents;
  /**
   * Whether anyone else is in the call (the main gateway's voice states): while someone is,
   * Connected waits for the DAVE group even before the voice server names them (op 11).
   */
  othersInCall(): boolean;
}

/** Metadata of a received frame (its RTP header). */
export interface OpusFrameInfo {
  ssrc: number;
  sequence: number;
  timestamp: number;
}

/** A video stream a participant can send: a camera (`video`) or a shared screen (`screen`). */
export type VideoStreamType = 'video' | 'screen';

/** A participant's video stream as its op 12 (Video) describes it: whether it is being sent. */
export interface VideoStreamState {
  type: VideoStreamType;
  active: boolean;
}

/** Metadata of a received video frame. */
export interface VideoFrameInfo {
  /** The stream's ssrc. */
  ssrc: number;
  stream: VideoStreamType;
  /** The RTP timestamp (90 kHz) all the frame's packets carried. */
  timestamp: number;
  /** A VP8 key frame (decodable on its own). */
  keyframe: boolean;
}

/** What a voice connection reports to its call. Each runs at most once per event. */
export interface VoiceConnectionEvents {
  /** The voice WebSocket answered Identify with Ready (status SignalingConnected). */
  signaling(): void;
  /**
   * Media can flow end-to-end encrypted: the transport is set up and the DAVE group is
   * established (or the player is alone in the call, with nobody to encrypt for).
   */
  connected(): void;
  /** The voice WebSocket dropped; the connection is resuming (status Reconnecting). */
  reconnecting(closeCode: number): void;
  /** Resumed (op 9): back to where it was. */
  resumed(): void;
  /** The connection ended for good (never after `close()`): why, a detail (a close code), and words. */
  closed(error: CallError, detail: number, reason: string): void;
  /** Clients Connect (11) / Client Disconnect (13): who else is connected to the voice server. */
  clients(userIds: readonly string[], connected: boolean): void;
  /** Speaking (5) of another member. */
  speaking(userId: string, speaking: boolean): void;
  /** One Opus frame of another member, transport- and DAVE-decrypted. */
  frame(userId: string, frame: Uint8Array, info: OpusFrameInfo): void;
  /** Video (12) of another member: which of its streams it sends now. */
  videoStreams(userId: string, streams: readonly VideoStreamState[]): void;
  /** One whole video frame of another member, put together from its packets and decrypted. */
  videoFrame(userId: string, frame: Uint8Array, info: VideoFrameInfo): void;
}

/**
 * What `Call.sendOpusFrame` did with a frame: `sent`; or why not — `muted` (self-mute),
 * `pttInactive` (push-to-talk mode, key not held), `notConnected` (no media path yet, or the call
 * ended), `e2eePending` (the DAVE group is not established: nothing is sent unencrypted).
 */
export type OpusSendResult = 'sent' | 'muted' | 'pttInactive' | 'notConnected' | 'e2eePending';

/**
 * What `Call.sendVideoFrame` did with a frame: `sent`; or why not — `notStreaming` (the stream is
 * not started: `Call.startVideo`), `notConnected`, `e2eePending`, `noVideoCodec` (the voice
 * server agreed on no codec this SDK sends), `tooLarge` (over `MAX_VIDEO_FRAME_BYTES`).
 */
export type VideoSendResult =
  'sent' | 'notStreaming' | 'notConnected' | 'e2eePending' | 'noVideoCodec' | 'tooLarge';

/** Counters of a connection, for diagnostics and tests (`Call.getStats`). */
export interface VoiceConnectionStats {
  framesSent: number;
  framesReceived: number;
  /** Whole video frames sent and received (a frame spans several packets). */
  videoFramesSent: number;
  videoFramesReceived: number;
  /** Received packets dropped: unknown sender, failed transport or DAVE decryption, malformed. */
  packetsDropped: number;
  /** The DAVE epoch's voice privacy code (empty until the group is established). */
  privacyCode: string;
}

export interface VoiceConnection {
  /** Sends one Opus frame (20 ms) as the next RTP packet. */
  sendOpus(frame: Uint8Array): OpusSendResult;
  /** Speaking (5): announces the start or end of the player's audio. */
  setSpeaking(speaking: boolean): void;
  stats(): VoiceConnectionStats;
  /**
   * Starts or stops sending a video stream (op 12 tells the others). False when the connection
   * cannot: not connected yet, or no video codec was agreed.
   */
  setVideoActive(stream: VideoStreamType, active: boolean): boolean;
  /** Sends one encoded video frame (VP8) of a started stream, over as many packets as it needs. */
  sendVideo(stream: VideoStreamType, frame: Uint8Array): VideoSendResult;
  /** Whether the player receives another member's video (op 15, Media Sink Wants). */
  setVideoWanted(userId: string, wanted: boolean): void;
  /** The call's participants changed: someone leaving may leave the player alone (Connected). */
  participantsChanged(): void;
  /** Closes the WebSocket (1000) and the media socket; no event follows. */
  close(): void;
}

/** The platform's way to open a voice connection (Node only). */
export type OpenVoiceConnection = (options: VoiceConnectOptions) => VoiceConnection;

/** An Opus encoder and decoder for 48 kHz stereo, 20 ms frames (960 samples per channel). */
export interface OpusCodec {
  /** 1920 interleaved samples → one Opus frame. */
  encode(pcm: Int16Array): Uint8Array;
  /** One Opus frame → interleaved 16-bit samples (1920 for a 20 ms frame). */
  decode(frame: Uint8Array): Int16Array;
  close(): void;
}

/** What the Node build's voice module gives (`Platform.loadVoice`). */
export interface VoiceModule {
  open: OpenVoiceConnection;
  createOpusCodec(): OpusCodec;
}
