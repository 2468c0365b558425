/**
 * @module voice/gateway/video: video and screen share, carried like audio. Identify's `streams`
 * get their ssrcs in Ready; Select Protocol's `codecs` name the video codec (Session
 * Description's `video_codec`, and the payload type the relay accepts on the member's streams);
 * op 12 (Video) says which of its streams a member sends, and goes to the others with its
 * `user_id` (and to whoever joins later); op 15 (Media Sink Wants) says what a member wants to
 * receive; op 16 (Voice Backend Version) is answered. The frames themselves are DAVE-encrypted
 * end to end and go through the relay (relay/videoFrames.ts).
 */
import { VoiceCloseCodes as Close, VoiceOpcodes as Op } from '@guildhall/protocol';
import type { z } from 'zod';
import { SinkWantsData, VideoData, type Codec, type IdentifyData } from '../frames.js';
import { others, send } from './send.js';
import { CloseError, parse, type Member, type MemberStream, type VoiceNodeState } from './state.js';

/** The video codecs a member may send with (RTP payload types as the client names them). */
const VIDEO_CODECS: ReadonlySet<string> = new Set(['AV1', 'H264', 'H265', 'VP8', 'VP9']);

/** What op 16 answers: the voice node's and the media worker's versions. */
const BACKEND_VERSION = { voice: 'guildhall-1', rtc_worker: 'guildhall-relay-1' } as const;

/** The ssrcs of Identify's streams, from the relay (at most four). */
export function allocateStreams(
  node: VoiceNodeState,
  ssrc: number,
  requested: z.infer<typeof IdentifyData>['streams'],
): MemberStream[] {
  const streams = requested ?? [];
  const relay = node.relay;
  if (relay === null || streams.length === 0) return [];
  const pairs = relay.addStreams(ssrc, streams.length);
  return streams.map((s, i) => ({
    type: s.type,
    rid: s.rid ?? '100',
    quality: s.quality ?? 100,
    ssrc: pairs[i]?.ssrc ?? 0,
    rtx_ssrc: pairs[i]?.rtxSsrc ?? 0,
  }));
}

/** Ready's `streams`: each with its ssrcs, not yet active. */
export const readyStreams = (streams: readonly MemberStream[]) =>
  streams.map((s) => ({ ...s, active: false }));

/**
 * The video codec of the session: the offered one of best (lowest) priority, or null. The relay
 * accepts its payload type on the member's streams.
 */
export function chooseVideoCodec(
  node: VoiceNodeState,
  member: Member,
  codecs: readonly z.infer<typeof Codec>[] | undefined,
): string | null {
  const video = (codecs ?? [])
    .filter((c) => c.type === 'video' && VIDEO_CODECS.has(c.name.toUpperCase()))
    .sort((a, b) => a.priority - b.priority)[0];
  node.relay?.setVideoPayloadTypes(member.ssrc, video === undefined ? [] : [video.payload_type]);
  return video === undefined ? null : video.name.toUpperCase();
}

export function createVideoCommands(node: VoiceNodeState) {
  /** Op 12: the member's own ssrcs only; the others get it with its user id. */
  const video = (member: Member, raw: unknown) => {
    const d = parse(VideoData, raw);
    const own = new Set(node.relay?.videoSsrcsOf(member.ssrc) ?? []);
    const streams = d.streams ?? [];
    const named = [d.video_ssrc, d.rtx_ssrc, ...streams.flatMap((s) => [s.ssrc, s.rtx_ssrc])];
    if (d.audio_ssrc !== member.ssrc || named.some((s) => s !== 0 && !own.has(s))) {
      throw new CloseError(Close.BAD_REQUEST, 'video names an ssrc that is not this member’s');
    }
    member.video = {
      user_id: member.userId,
      audio_ssrc: d.audio_ssrc,
      video_ssrc: d.video_ssrc,
      rtx_ssrc: d.rtx_ssrc,
      streams,
    };
    for (const other of others(member)) send(other, Op.VIDEO, member.video);
  };

  /** Op 15: what the member wants of the others' video (`any` for every ssrc not named). */
  const sinkWants = (member: Member, raw: unknown) => {
    const d = parse(SinkWantsData, raw);
    const bySsrc = new Map(
      Object.entries(d)
        .filter(([key]) => key !== 'any')
        .map(([key, quality]) => [Number(key), quality] as const),
    );
    node.relay?.setSinkWants(member.ssrc, { any: d['any'] ?? 100, bySsrc });
  };

  const backendVersion = (member: Member) => {
    send(member, Op.VOICE_BACKEND_VERSION, BACKEND_VERSION);
  };

  /** A member who just arrived hears of the others' video, as of their speaking. */
  const catchUp = (member: Member) => {
    for (const other of others(member)) {
      if (other.video !== null) send(member, Op.VIDEO, other.video);
    }
  };

  return { video, sinkWants, backendVersion, catchUp };
}
