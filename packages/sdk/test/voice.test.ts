import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DAVE_PROTOCOL_VERSION, RTP_OPUS_PAYLOAD_TYPE, VoiceOpcodes } from '@guildhall/protocol';
import {
  AudioDeviceUnavailableError,
  AudioModeType,
  AuthorizationTokenType,
  Call,
  CallError,
  CallStatus,
  Client,
  ClientStatus,
  ErrorType,
  LoggingSeverity,
  SdkError,
  VoiceNotAvailableError,
  type VoiceSettings,
} from '../src/node.js';
import { BROWSER_NO_VOICE, browserPlatform } from '../src/platform/browser.js';
import { VoiceOp } from '../src/platform/nodeVoice.js';
import { DaveOp } from '../src/platform/nodeVoiceDave.js';
import { RTP_OPUS_PAYLOAD_TYPE as SDK_RTP_PT } from '../src/platform/nodeVoiceRtp.js';
import {
  FakeGateway,
  FakeVoiceServer,
  LOBBY_ID,
  OTHER,
  PLAYER,
  until,
  type FakeVoiceOptions,
} from './voiceFake.js';

const SILENCE = Uint8Array.of(0xf8, 0xff, 0xfe);
const OTHER_SSRC = 777;

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => new Error('resolved'),
    (reason: unknown) => reason,
  );
}

/** A fetch that counts its calls and answers nothing. */
function countingFetch(): { fetch: typeof fetch; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    fetch: (input) => {
      calls.push(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
      return Promise.reject(new Error('no request should have been made'));
    },
  };
}

describe('SDK voice: settings, devices and builds', () => {
  it('has no audio devices in Node, says so, and makes no request', async () => {
    const counter = countingFetch();
    const client = new Client({ apiBase: 'http://127.0.0.1:9/api/v10', fetch: counter.fetch });
    expect(await client.getInputDevices()).toEqual([]);
    expect(await client.getOutputDevices()).toEqual([]);
    const refused: [string, Promise<unknown>][] = [
      ['getCurrentInputDevice', client.getCurrentInputDevice()],
      ['getCurrentOutputDevice', client.getCurrentOutputDevice()],
      ['setInputDevice', client.setInputDevice('default')],
      ['setOutputDevice', client.setOutputDevice('default')],
      ['getDefaultAudioDeviceId', Client.getDefaultAudioDeviceId()],
      ['setAutomaticGainControl', client.setAutomaticGainControl(false)],
      ['setEchoCancellation', client.setEchoCancellation(false)],
      ['setNoiseSuppression', client.setNoiseSuppression(false)],
      ['setOpusHardwareCoding', client.setOpusHardwareCoding(true, true)],
      ['setNoAudioInputThreshold', client.setNoAudioInputThreshold(-50)],
      ['setEngineManagedAudioSession', client.setEngineManagedAudioSession(true)],
      ['showAudioRoutePicker', client.showAudioRoutePicker()],
      ['setAecDump', client.setAecDump(true)],
    ];
    for (const [operation, promise] of refused) {
      const error = await rejection(promise);
      expect(error, operation).toBeInstanceOf(AudioDeviceUnavailableError);
      const sdk = error as SdkError;
      expect(sdk.type).toBe(ErrorType.Disabled);
      expect(sdk.message).toMatch(new RegExp(`^${operation}: .*Node has no audio devices`));
      expect(sdk.message).toContain('Call.sendOpusFrame()');
    }
    const logDir = await rejection(client.setVoiceLogDir('/tmp/voice', LoggingSeverity.Info));
    expect((logDir as SdkError).type).toBe(ErrorType.ValidationError);
    expect((logDir as SdkError).message).toContain('addVoiceLogCallback');
    expect(counter.calls).toEqual([]);
  });

  it('keeps voice settings and reports each change', async () => {
    const client = new Client({ apiBase: 'http://127.0.0.1:9/api/v10' });
    const updates: VoiceSettings[] = [];
    client.setVoiceSettingsUpdatedCallback((settings) => updates.push(settings));
    const initial = await client.getVoiceSettings();
    expect([
      initial.selfMute(),
      initial.selfDeaf(),
      initial.inputVolume(),
      initial.outputVolume(),
    ]).toEqual([false, false, 100, 100]);
    expect(initial.audioMode()).toBe(AudioModeType.VAD);
    expect(initial.pttKey()).toBeNull();
    await client.setInputVolume(40);
    await client.setOutputVolume(180);
    await client.setOutputVolume(180); // unchanged: no callback
    await client.setSelfMuteAll(true);
    await client.setSelfDeafAll(true);
    expect(
      updates.map((s) => [s.inputVolume(), s.outputVolume(), s.selfMute(), s.selfDeaf()]),
    ).toEqual([
      [40, 100, false, false],
      [40, 180, false, false],
      [40, 180, true, false],
      [40, 180, true, true],
    ]);
    expect(await client.getSelfMuteAll()).toBe(true);
    expect(await client.getInputVolume()).toBe(40);
    expect(((await rejection(client.setInputVolume(101))) as SdkError).type).toBe(
      ErrorType.ValidationError,
    );
    expect(((await rejection(client.setOutputVolume(-1))) as SdkError).type).toBe(
      ErrorType.ValidationError,
    );
    expect(updates).toHaveLength(4);
  });

  it('checks startCall before joining: a ready client, a lobby id', async () => {
    const client = new Client({ apiBase: 'http://127.0.0.1:9/api/v10' });
    expect(((await rejection(client.startCall('not-an-id'))) as SdkError).type).toBe(
      ErrorType.ValidationError,
    );
    expect(((await rejection(client.startCall(LOBBY_ID))) as SdkError).type).toBe(
      ErrorType.ClientNotReady,
    );
    expect(await client.getCalls()).toEqual([]);
    expect(await client.getCall(LOBBY_ID)).toBeNull();
  });

  it('has no voice in the browser build, and says why', async () => {
    const client = new Client({
      apiBase: 'http://127.0.0.1:9/api/v10',
      platform: browserPlatform(),
    });
    for (const [operation, promise] of [
      ['startCall', client.startCall(LOBBY_ID)],
      ['getVoiceSettings', client.getVoiceSettings()],
      ['getInputDevices', client.getInputDevices()],
      ['getCurrentInputDevice', client.getCurrentInputDevice()],
      ['setSelfMuteAll', client.setSelfMuteAll(true)],
    ] as const) {
      const error = await rejection(promise);
      expect(error, operation).toBeInstanceOf(VoiceNotAvailableError);
      expect((error as SdkError).type).toBe(ErrorType.Disabled);
      expect((error as SdkError).message).toBe(
        `${operation}: voice not available: ${BROWSER_NO_VOICE}`,
      );
    }
    expect(BROWSER_NO_VOICE).toContain('UDP');
    expect(BROWSER_NO_VOICE).toContain('DAVE');
  });

  it('speaks the wire constants of @guildhall/protocol', () => {
    for (const [name, value] of Object.entries(VoiceOp)) {
      const upper = name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
      expect(VoiceOpcodes[upper as keyof typeof VoiceOpcodes], name).toBe(value);
    }
    for (const [name, value] of Object.entries(DaveOp)) {
      const upper = `DAVE_${name.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase()}`;
      expect(VoiceOpcodes[upper as keyof typeof VoiceOpcodes], name).toBe(value);
    }
    expect(SDK_RTP_PT).toBe(RTP_OPUS_PAYLOAD_TYPE);
    expect(DAVE_PROTOCOL_VERSION).toBe(1);
    expect(Call.statusToString(CallStatus.SignalingConnected)).toBe('SignalingConnected');
    expect(Call.errorToString(CallError.JoinTimeout)).toBe('JoinTimeout');
  });
});

/** A call's status changes, as they come. */
class StatusLog extends EventEmitter {
  readonly entries: { status: CallStatus; error: CallError; detail: number }[] = [];

  constructor(call: Call) {
    super();
    call.setStatusChangedCallback((status, error, detail) => {
      this.entries.push({ status, error, detail });
      this.emit('change');
    });
  }

  get statuses(): CallStatus[] {
    return this.entries.map((e) => e.status);
  }

  reach(status: CallStatus): Promise<void> {
    return until(this, () => this.statuses.includes(status));
  }

  last(): { status: CallStatus; error: CallError; detail: number } | undefined {
    return this.entries.at(-1);
  }
}

/** Waits for the event loop to run until a condition holds (no clock involved). */
async function settle(check: () => boolean): Promise<void> {
  while (!check()) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('SDK voice against a stand-in voice server', () => {
  let gateway: FakeGateway;
  let voice: FakeVoiceServer;
  let client: Client;
  let logs: string[];

  async function setup(options: FakeVoiceOptions = {}): Promise<void> {
    gateway = await FakeGateway.start();
    voice = await FakeVoiceServer.start(options);
    gateway.voiceEndpoint = voice.endpoint;
    gateway.inCall = [];
    client = new Client({ apiBase: gateway.apiBase });
    logs = [];
    client.addLogCallback((line) => logs.push(line), LoggingSeverity.Verbose);
    await client.updateToken(AuthorizationTokenType.Bearer, 'main-token');
    await new Promise<void>((resolve) => {
      client.setStatusChangedCallback((status) => {
        if (status === ClientStatus.Ready) resolve();
      });
      client.connect();
    });
  }

  async function connectedCall(): Promise<{ call: Call; log: StatusLog }> {
    const call = await client.startCall(LOBBY_ID);
    const log = new StatusLog(call);
    await log.reach(CallStatus.Connected);
    return { call, log };
  }

  beforeEach(() => {
    logs = [];
  });

  afterEach(async () => {
    vi.useRealTimers();
    client.disconnect();
    await voice.close();
    await gateway.close();
    expect(logs.join('\n')).not.toContain('voice-token-secret');
    expect(logs.join('\n')).not.toContain('main-token');
  });

  it('joins a lobby call: Joining → Connecting → SignalingConnected → Connected, then ends it', async () => {
    await setup();
    // Someone is in the call already (a voice state) but never reaches the voice server.
    gateway.inCall = [{ id: OTHER.id, self_mute: false, self_deaf: false }];
    const participants: [string, boolean][] = [];
    const lobbyVoice: [string, string, boolean][] = [];
    client.setVoiceParticipantChangedCallback((lobbyId, userId, added) =>
      lobbyVoice.push([lobbyId, userId, added]),
    );
    const call = await client.startCall(LOBBY_ID);
    expect(await call.getStatus()).toBe(CallStatus.Joining);
    call.setParticipantChangedCallback((userId, added) => participants.push([userId, added]));
    const log = new StatusLog(call);
    await log.reach(CallStatus.SignalingConnected);
    expect(log.statuses).toEqual([CallStatus.Connecting, CallStatus.SignalingConnected]);
    // Its DAVE key package (op 26) goes out as a binary frame after Session Description.
    await until(voice, () => voice.binary.some((b) => b.op === 26));

    // op 4 of the lobby, then the voice gateway's handshake, offering DAVE.
    expect(gateway.voiceStates).toEqual([
      {
        guild_id: null,
        channel_id: LOBBY_ID,
        self_mute: false,
        self_deaf: false,
        self_video: false,
      },
    ]);
    expect(voice.identifies).toEqual([
      {
        server_id: LOBBY_ID,
        user_id: PLAYER.id,
        session_id: 'main-session-1',
        token: 'voice-token-secret',
        max_dave_protocol_version: 1,
        // A camera and a screen, whose ssrcs Ready gives (docs/sdk.md, Video and screen share).
        video: true,
        streams: [
          { type: 'video', rid: '100', quality: 100 },
          { type: 'screen', rid: '100', quality: 100 },
        ],
      },
    ]);
    const select = voice.selects[0] as {
      protocol: string;
      data: { address: string; port: number; mode: string };
      codecs: { name: string; type: string; payload_type: number }[];
    };
    // Opus, and VP8: the one video codec the SDK packs.
    expect(select.codecs.map((c) => [c.name, c.type, c.payload_type])).toEqual([
      ['opus', 'audio', 120],
      ['VP8', 'video', 103],
    ]);
    expect(select.protocol).toBe('udp');
    expect(select.data.address).toBe('127.0.0.1');
    expect(select.data.port).toBe(voice.member()?.address?.port);
    expect(select.data.mode).toBe('aead_aes256_gcm_rtpsize');
    expect(voice.binary.find((b) => b.op === 26)?.length).toBeGreaterThan(100);

    expect(await call.getParticipants()).toEqual([OTHER.id, PLAYER.id]);
    expect(participants).toEqual([
      [OTHER.id, true],
      [PLAYER.id, true],
    ]);
    expect(lobbyVoice).toEqual([
      [LOBBY_ID, OTHER.id, true],
      [LOBBY_ID, PLAYER.id, true],
    ]);
    expect(await client.getCall(LOBBY_ID)).toBe(call);
    expect(await client.getCalls()).toEqual([call]);
    expect(await call.getGuildId()).toBe(LOBBY_ID);
    // startCall again: the same call; another lobby while in this one: refused.
    expect(await client.startCall(LOBBY_ID)).toBe(call);

    // With someone else in the call, Connected waits for the DAVE group (nothing goes out
    // before it): the other participant mutes, then leaves, and the player is alone.
    expect(await call.getStatus()).toBe(CallStatus.SignalingConnected);
    expect(call.sendOpusFrame(Uint8Array.of(0xf8, 0xff, 0xfe))).toBe('notConnected');
    const changed: string[] = [];
    call.setOnVoiceStateChangedCallback((userId) => changed.push(userId));
    gateway.voiceState(OTHER.id, LOBBY_ID, { selfMute: true });
    gateway.voiceState(OTHER.id, null);
    await log.reach(CallStatus.Connected);
    expect(log.statuses).toEqual([
      CallStatus.Connecting,
      CallStatus.SignalingConnected,
      CallStatus.Connected,
    ]);
    expect(log.entries.every((e) => e.error === CallError.None)).toBe(true);
    expect(changed).toEqual([OTHER.id]);
    expect(participants.at(-1)).toEqual([OTHER.id, false]);
    expect(lobbyVoice.at(-1)).toEqual([LOBBY_ID, OTHER.id, false]);

    await client.endCall(LOBBY_ID);
    expect(log.statuses.slice(-2)).toEqual([CallStatus.Disconnecting, CallStatus.Disconnected]);
    expect(log.last()?.error).toBe(CallError.None);
    await until(gateway, () => gateway.voiceStates.length === 2);
    expect(gateway.voiceStates[1]?.channel_id).toBeNull();
    expect(await client.getCalls()).toEqual([]);
  });

  it('sends only what mute, push-to-talk and E2EE allow, transport-encrypted', async () => {
    await setup();
    const { call } = await connectedCall();
    expect(call.sendOpusFrame(SILENCE)).toBe('sent');
    await until(voice, () => voice.received.length === 1);
    expect(voice.received[0]?.ssrc).toBe(4242);
    expect([...(voice.received[0]?.payload ?? [])]).toEqual([...SILENCE]);
    expect(voice.rejected).toBe(0);

    // Audio without an established DAVE group is never sent (nothing leaves unencrypted).
    expect(call.sendOpusFrame(Uint8Array.of(0x78, 1, 2, 3))).toBe('e2eePending');
    expect(() => call.sendOpusFrame(new Uint8Array(0))).toThrow(SdkError);
    expect(() => call.sendOpusFrame(new Uint8Array(1276))).toThrow(/1 to 1275 bytes/);

    await call.setSelfMute(true);
    await until(gateway, () => gateway.voiceStates.length === 2);
    expect(gateway.voiceStates[1]).toMatchObject({
      channel_id: LOBBY_ID,
      self_mute: true,
      self_deaf: false,
    });
    expect(await call.getSelfMute()).toBe(true);
    expect(call.sendOpusFrame(SILENCE)).toBe('muted');
    await call.setSelfMute(false);

    await call.setAudioMode(AudioModeType.PTT);
    expect(call.sendOpusFrame(SILENCE)).toBe('pttInactive');
    await call.setPTTActive(true);
    expect(await call.getPTTActive()).toBe(true);
    expect(call.sendOpusFrame(SILENCE)).toBe('sent');
    await call.setPTTReleaseDelay(0);
    await call.setPTTActive(false);
    expect(call.sendOpusFrame(SILENCE)).toBe('pttInactive');
    expect(((await rejection(call.setPTTReleaseDelay(-5))) as SdkError).type).toBe(
      ErrorType.ValidationError,
    );

    await until(voice, () => voice.received.length === 2);
    expect(call.getStats().framesSent).toBe(2);
    // The same VOICE_SERVER_UPDATE again (then a voice state, to know it was read): no reconnect.
    const lobbyVoice: string[] = [];
    client.setVoiceParticipantChangedCallback((_lobby, userId) => lobbyVoice.push(userId));
    gateway.dispatch('VOICE_SERVER_UPDATE', {
      token: 'voice-token-secret',
      guild_id: null,
      channel_id: LOBBY_ID,
      endpoint: voice.endpoint,
    });
    gateway.voiceState(OTHER.id, LOBBY_ID);
    await settle(() => lobbyVoice.includes(OTHER.id));
    expect(voice.identifies).toHaveLength(1);
    expect(await call.getStatus()).toBe(CallStatus.Connected);
    // Sequence numbers follow each other.
    expect(((voice.received[0]?.sequence ?? 0) + 1) & 0xffff).toBe(voice.received[1]?.sequence);
  });

  it('receives frames, and stops delivering them when deafened or locally muted', async () => {
    await setup({ modes: ['aead_xchacha20_poly1305_rtpsize'] });
    const { call } = await connectedCall();
    expect((voice.selects[0] as { data: { mode: string } }).data.mode).toBe(
      'aead_xchacha20_poly1305_rtpsize',
    );
    const speaking: [string, boolean][] = [];
    const frames: { userId: string; frame: number[]; sequence: number }[] = [];
    call.setSpeakingStatusChangedCallback((userId, on) => speaking.push([userId, on]));
    call.setOpusFrameReceivedCallback((userId, frame, info) => {
      frames.push({ userId, frame: [...frame], sequence: info.sequence });
    });
    voice.sendJson(5, { user_id: OTHER.id, ssrc: OTHER_SSRC, speaking: 1 });
    await settle(() => speaking.length === 1);
    expect(speaking).toEqual([[OTHER.id, true]]);

    const received = (n: number): Promise<void> =>
      settle(() => call.getStats().framesReceived === n);
    voice.sendMedia(OTHER_SSRC, SILENCE); // sequence 0: delivered
    await received(1);
    await call.setSelfDeaf(true);
    await until(gateway, () => gateway.voiceStates.at(-1)?.self_deaf === true);
    voice.sendMedia(OTHER_SSRC, SILENCE); // 1: deafened
    await received(2);
    await call.setSelfDeaf(false);
    await call.setLocalMute(OTHER.id, true);
    expect(await call.getLocalMute(OTHER.id)).toBe(true);
    voice.sendMedia(OTHER_SSRC, SILENCE); // 2: locally muted
    await received(3);
    await call.setLocalMute(OTHER.id, false);
    voice.sendMedia(OTHER_SSRC, SILENCE); // 3: delivered
    await received(4);
    // A packet that does not authenticate is dropped.
    const forged = Buffer.alloc(40, 1);
    forged.set([0x80, 0x78, 0, 9, 0, 0, 0, 1, 0, 0, 0x03, 0x09], 0);
    voice.sendRaw(forged);
    await settle(() => call.getStats().packetsDropped === 1);
    // A sender's packets that come before its Speaking (5) wait for it.
    voice.sendMedia(9999, SILENCE); // 4
    voice.sendMedia(9999, SILENCE); // 5
    voice.sendMedia(OTHER_SSRC, SILENCE); // 6: delivered first
    await received(5);
    voice.sendJson(5, { user_id: OTHER.id, ssrc: 9999, speaking: 1 });
    await received(7);
    expect(frames).toEqual([
      { userId: OTHER.id, frame: [...SILENCE], sequence: 0 },
      { userId: OTHER.id, frame: [...SILENCE], sequence: 3 },
      { userId: OTHER.id, frame: [...SILENCE], sequence: 6 },
      { userId: OTHER.id, frame: [...SILENCE], sequence: 4 },
      { userId: OTHER.id, frame: [...SILENCE], sequence: 5 },
    ]);
    expect(call.getStats().packetsDropped).toBe(1);
  });

  it('sends and receives PCM through Opus (startCallWithAudioCallbacks)', async () => {
    await setup();
    const received: { userId: string; length: number; peak: number; sampleRate: number }[] = [];
    const captured: number[] = [];
    const call = await client.startCallWithAudioCallbacks(
      LOBBY_ID,
      (audio) => {
        received.push({
          userId: audio.userId,
          length: audio.data.length,
          peak: Math.max(...audio.data.map(Math.abs)),
          sampleRate: audio.sampleRate,
        });
      },
      (audio) => {
        captured.push(audio.data.length);
      },
    );
    const log = new StatusLog(call);
    await log.reach(CallStatus.Connected);
    const tone = Int16Array.from({ length: 1920 }, (_, i) => Math.round(8000 * Math.sin(i / 10)));
    await expect(call.sendPcmFrame(new Int16Array(10))).rejects.toThrow(/1920 samples/);
    // VAD with a threshold: a quiet frame is not sent.
    await call.setVADThreshold(false, -10);
    expect(await call.sendPcmFrame(tone)).toBe('silent');
    // Push-to-talk skips VAD: the frame is encoded, and held back while the DAVE group is not
    // established (nothing leaves unencrypted).
    await call.setAudioMode(AudioModeType.PTT);
    await call.setPTTActive(true);
    expect(await call.sendPcmFrame(tone)).toBe('e2eePending');
    expect(captured).toEqual([1920, 1920]);
    expect(call.getStats().framesSent).toBe(0);

    voice.sendJson(5, { user_id: OTHER.id, ssrc: OTHER_SSRC, speaking: 1 });
    voice.sendMedia(OTHER_SSRC, SILENCE);
    await settle(() => received.length === 1);
    expect(received).toEqual([{ userId: OTHER.id, length: 1920, peak: 0, sampleRate: 48000 }]);
  });

  it('resumes a dropped voice WebSocket: Reconnecting → Connected, same media path', async () => {
    await setup();
    const { call, log } = await connectedCall();
    const speaking: boolean[] = [];
    call.setSpeakingStatusChangedCallback((_userId, on) => speaking.push(on));
    voice.sendJson(5, { user_id: OTHER.id, ssrc: OTHER_SSRC, speaking: 0 }); // seq 2 (1: Session Description)
    await settle(() => speaking.length === 1);
    voice.drop();
    await until(voice, () => voice.resumes.length === 1);
    expect(voice.resumes[0]).toEqual({
      server_id: LOBBY_ID,
      session_id: 'main-session-1',
      token: 'voice-token-secret',
      seq_ack: 2,
    });
    await settle(
      () =>
        log.statuses.includes(CallStatus.Reconnecting) &&
        log.last()?.status === CallStatus.Connected,
    );
    expect(log.statuses.slice(-2)).toEqual([CallStatus.Reconnecting, CallStatus.Connected]);
    expect(voice.identifies).toHaveLength(1);
    expect(call.sendOpusFrame(SILENCE)).toBe('sent');
    await until(voice, () => voice.received.length === 1);
  });

  it('ends its calls when the client disconnects', async () => {
    await setup();
    const { call, log } = await connectedCall();
    client.disconnect();
    expect(log.statuses.slice(-2)).toEqual([CallStatus.Disconnecting, CallStatus.Disconnected]);
    expect(await call.getStatus()).toBe(CallStatus.Disconnected);
    // Its voice state was left on the gateway before the session closed, and the voice
    // WebSocket closed normally (1000).
    await until(gateway, () => gateway.voiceStates.at(-1)?.channel_id === null);
    await until(voice, () => voice.member(PLAYER.id) === null);
  });

  it.each([
    [4004, CallError.Forbidden, 'refused the player'],
    [4017, CallError.SignalingConnectionFailed, 'requires end-to-end encryption (DAVE)'],
  ])('ends a refused Identify (close %i) with its error', async (code, error, words) => {
    await setup({ refuseIdentify: code });
    const call = await client.startCall(LOBBY_ID);
    const log = new StatusLog(call);
    await log.reach(CallStatus.Disconnected);
    expect(log.last()).toEqual({ status: CallStatus.Disconnected, error, detail: code });
    expect(logs.some((line) => line.includes(words) && line.includes(String(code)))).toBe(true);
    await until(gateway, () => gateway.voiceStates.at(-1)?.channel_id === null);
  });

  it('refuses a voice server without end-to-end encryption (DAVE version 0)', async () => {
    await setup({ daveVersion: 0 });
    const call = await client.startCall(LOBBY_ID);
    const log = new StatusLog(call);
    await log.reach(CallStatus.Disconnected);
    expect(log.statuses).not.toContain(CallStatus.Connected);
    expect(log.last()?.error).toBe(CallError.SignalingConnectionFailed);
    expect(logs.some((line) => line.includes('end-to-end encrypted only'))).toBe(true);
  });

  it('ends with SignalingUnexpectedClose when the server closes for good', async () => {
    await setup();
    const { log } = await connectedCall();
    voice.closeWith(4022);
    await log.reach(CallStatus.Disconnected);
    expect(log.last()).toEqual({
      status: CallStatus.Disconnected,
      error: CallError.SignalingUnexpectedClose,
      detail: 4022,
    });
    expect(voice.resumes).toEqual([]);
    expect(logs.some((line) => line.includes('close 4022: the call is full'))).toBe(true);
  });

  it('times out a join the server never answers (JoinTimeout)', async () => {
    await setup();
    gateway.mode = 'silent';
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = await client.startCall(LOBBY_ID);
    const log = new StatusLog(call);
    await until(gateway, () => gateway.voiceStates.length === 1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(log.last()).toEqual({
      status: CallStatus.Disconnected,
      error: CallError.JoinTimeout,
      detail: 0,
    });
    await until(gateway, () => gateway.voiceStates.length === 2);
    expect(gateway.voiceStates[1]?.channel_id).toBeNull();
  });

  it('fails with VoiceConnectionFailed when IP discovery gets no answer', async () => {
    await setup({ answerDiscovery: false });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const call = await client.startCall(LOBBY_ID);
    const log = new StatusLog(call);
    await log.reach(CallStatus.SignalingConnected);
    await vi.advanceTimersByTimeAsync(5_000);
    await log.reach(CallStatus.Disconnected);
    expect(log.last()?.error).toBe(CallError.VoiceConnectionFailed);
    expect(logs.some((line) => line.includes('IP discovery got no answer'))).toBe(true);
  });
});
