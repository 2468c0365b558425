import { describe, expect, it } from 'vitest';
import {
  AudioDevice,
  AudioModeType,
  Call,
  CallError,
  CallStatus,
  Client,
  ErrorType,
  LoggingSeverity,
  SdkError,
  VoiceNotAvailableError,
} from '../src/node.js';
import WebSocket from 'ws';
import type { WebSocketConstructor } from '../src/gateway.js';
import { connectReady, useSdkWorld } from './support.js';

/** Every voice operation of Client, called with plausible arguments. */
const CLIENT_OPERATIONS: [string, (client: Client) => Promise<unknown>][] = [
  ['getVoiceSettings', (c) => c.getVoiceSettings()],
  ['startCall', (c) => c.startCall('1234')],
  [
    'startCallWithAudioCallbacks',
    (c) =>
      c.startCallWithAudioCallbacks(
        '1234',
        () => undefined,
        () => undefined,
      ),
  ],
  ['endCall', (c) => c.endCall('1234')],
  ['endCalls', (c) => c.endCalls()],
  ['getCall', (c) => c.getCall('1234')],
  ['getCalls', (c) => c.getCalls()],
  ['getCurrentInputDevice', (c) => c.getCurrentInputDevice()],
  ['getCurrentOutputDevice', (c) => c.getCurrentOutputDevice()],
  ['getInputDevices', (c) => c.getInputDevices()],
  ['getOutputDevices', (c) => c.getOutputDevices()],
  ['setInputDevice', (c) => c.setInputDevice('default')],
  ['setOutputDevice', (c) => c.setOutputDevice('default')],
  ['getInputVolume', (c) => c.getInputVolume()],
  ['setInputVolume', (c) => c.setInputVolume(50)],
  ['getOutputVolume', (c) => c.getOutputVolume()],
  ['setOutputVolume', (c) => c.setOutputVolume(150)],
  ['getSelfMuteAll', (c) => c.getSelfMuteAll()],
  ['setSelfMuteAll', (c) => c.setSelfMuteAll(true)],
  ['getSelfDeafAll', (c) => c.getSelfDeafAll()],
  ['setSelfDeafAll', (c) => c.setSelfDeafAll(true)],
  ['setEngineManagedAudioSession', (c) => c.setEngineManagedAudioSession(true)],
  // eslint-disable-next-line @typescript-eslint/no-deprecated -- the deprecated one rejects too
  ['setSpeakerMode', (c) => c.setSpeakerMode(true)],
  ['showAudioRoutePicker', (c) => c.showAudioRoutePicker()],
  ['setAutomaticGainControl', (c) => c.setAutomaticGainControl(false)],
  ['setEchoCancellation', (c) => c.setEchoCancellation(false)],
  ['setNoiseSuppression', (c) => c.setNoiseSuppression(false)],
  ['setOpusHardwareCoding', (c) => c.setOpusHardwareCoding(true, true)],
  ['setNoAudioInputThreshold', (c) => c.setNoAudioInputThreshold(-50)],
  ['setAecDump', (c) => c.setAecDump(true)],
  ['setVoiceLogDir', (c) => c.setVoiceLogDir('/tmp/voice', LoggingSeverity.Info)],
];

/** Every voice operation of a Call. */
const CALL_OPERATIONS: [string, (call: Call) => Promise<unknown>][] = [
  ['Call.getGuildId', (c) => c.getGuildId()],
  ['Call.getStatus', (c) => c.getStatus()],
  ['Call.getAudioMode', (c) => c.getAudioMode()],
  ['Call.setAudioMode', (c) => c.setAudioMode(AudioModeType.PTT)],
  ['Call.getParticipants', (c) => c.getParticipants()],
  ['Call.getVoiceStateHandle', (c) => c.getVoiceStateHandle('1')],
  ['Call.getLocalMute', (c) => c.getLocalMute('1')],
  ['Call.setLocalMute', (c) => c.setLocalMute('1', true)],
  ['Call.getParticipantVolume', (c) => c.getParticipantVolume('1')],
  ['Call.setParticipantVolume', (c) => c.setParticipantVolume('1', 80)],
  ['Call.getPTTActive', (c) => c.getPTTActive()],
  ['Call.setPTTActive', (c) => c.setPTTActive(true)],
  ['Call.getPTTReleaseDelay', (c) => c.getPTTReleaseDelay()],
  ['Call.setPTTReleaseDelay', (c) => c.setPTTReleaseDelay(20)],
  ['Call.getSelfMute', (c) => c.getSelfMute()],
  ['Call.setSelfMute', (c) => c.setSelfMute(true)],
  ['Call.getSelfDeaf', (c) => c.getSelfDeaf()],
  ['Call.setSelfDeaf', (c) => c.setSelfDeaf(true)],
  ['Call.getVADThreshold', (c) => c.getVADThreshold()],
  ['Call.setVADThreshold', (c) => c.setVADThreshold(false, -40)],
];

/** Checks a rejection is the voice error of that operation, with its type and message. */
async function expectVoiceUnavailable(promise: Promise<unknown>, operation: string): Promise<void> {
  const error: unknown = await promise.then(
    () => new Error(`${operation} resolved`),
    (reason: unknown) => reason,
  );
  expect(error, operation).toBeInstanceOf(VoiceNotAvailableError);
  expect(error, operation).toBeInstanceOf(SdkError);
  const voice = error as VoiceNotAvailableError;
  expect(voice.name).toBe('VoiceNotAvailableError');
  expect(voice.type).toBe(ErrorType.Disabled);
  expect(voice.status).toBe(0);
  expect(voice.code).toBe(0);
  expect(voice.retryable).toBe(false);
  expect(voice.message).toBe(
    `${operation}: voice not available. This Guildhall SDK and server have no voice yet; calls, push-to-talk and audio devices arrive with voice support.`,
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

describe('SDK voice without voice support', () => {
  it('rejects every Client voice operation with VoiceNotAvailableError and no request', async () => {
    const counter = countingFetch();
    const client = new Client({ apiBase: 'http://127.0.0.1:9/api/v10', fetch: counter.fetch });
    const logged: string[] = [];
    client.addLogCallback((line) => logged.push(line), LoggingSeverity.Verbose);
    for (const [operation, run] of CLIENT_OPERATIONS) {
      await expectVoiceUnavailable(run(client), operation);
    }
    await expectVoiceUnavailable(Client.getDefaultAudioDeviceId(), 'getDefaultAudioDeviceId');
    expect(counter.calls).toEqual([]);
    // Each rejection leaves one Verbose line naming the operation (arguments shown, callbacks not).
    expect(logged.filter((line) => line.includes('voice is not available'))).toHaveLength(
      CLIENT_OPERATIONS.length,
    );
    expect(logged).toContain(
      'startCallWithAudioCallbacks("1234", callback, callback): voice is not available in this Guildhall yet.',
    );
  });

  it('rejects every Call operation, and keeps what the call was made for', async () => {
    const call = new Call('5678');
    for (const [operation, run] of CALL_OPERATIONS) {
      await expectVoiceUnavailable(run(call), operation);
    }
    expect(call.getChannelId()).toBe('5678');
    expect(Call.statusToString(CallStatus.SignalingConnected)).toBe('SignalingConnected');
    expect(Call.errorToString(CallError.JoinTimeout)).toBe('JoinTimeout');
  });

  it('registers the voice callbacks (and clears them with null)', () => {
    const client = new Client({ apiBase: 'http://127.0.0.1:9/api/v10' });
    const settingsUpdated = (): void => undefined;
    expect(() => {
      client.setVoiceSettingsUpdatedCallback(settingsUpdated);
      client.setDeviceChangeCallback(() => undefined);
      client.setNoAudioInputCallback(() => undefined);
      client.setVoiceParticipantChangedCallback(() => undefined);
      client.addVoiceLogCallback(() => undefined, LoggingSeverity.Warning);
      client.setVoiceSettingsUpdatedCallback(null);
    }).not.toThrow();
    const call = new Call('5678');
    const statusChanged = (): void => undefined;
    call.setStatusChangedCallback(statusChanged);
    call.setParticipantChangedCallback(() => undefined);
    call.setSpeakingStatusChangedCallback(() => undefined);
    call.setOnVoiceStateChangedCallback(() => undefined);
    expect(call.callbacks.statusChanged).toBe(statusChanged);
    call.setStatusChangedCallback(null);
    expect(call.callbacks.statusChanged).toBeNull();
    expect(call.callbacks.participantChanged).not.toBeNull();
  });

  it('has the value types a voice game reads', () => {
    const mic = new AudioDevice({ id: 'mic-1', name: 'USB microphone', isDefault: true });
    expect(
      mic.equals(new AudioDevice({ id: 'mic-1', name: 'USB microphone', isDefault: true })),
    ).toBe(true);
    mic.setIsDefault(false);
    expect(mic.isDefault()).toBe(false);
    expect(
      mic.equals(new AudioDevice({ id: 'mic-1', name: 'USB microphone', isDefault: true })),
    ).toBe(false);
  });
});

describe('SDK voice on a connected client', () => {
  const world = useSdkWorld('sqlite');

  it('rejects on a Ready client too, without a request or a gateway command', async () => {
    const ada = await world().player('Ada');
    const requests: string[] = [];
    const commands: number[] = [];
    /** The Node build's WebSocket, noting the op of every frame the client sends. */
    class WatchedSocket extends WebSocket {
      override send(data: unknown): void {
        commands.push((JSON.parse(String(data)) as { op: number }).op);
        super.send(data as string);
      }
    }
    const client = await world().client(ada, {
      fetch: (input, init) => {
        requests.push(input instanceof Request ? input.url : input.toString());
        return fetch(input, init);
      },
      platform: { WebSocket: WatchedSocket as unknown as WebSocketConstructor },
    });
    await connectReady(client);
    expect(commands).toContain(2); // IDENTIFY went through the watched socket
    const [requestsBefore, commandsBefore] = [requests.length, commands.length];
    for (const [operation, run] of CLIENT_OPERATIONS) {
      await expectVoiceUnavailable(run(client), operation);
    }
    // Heartbeats (op 1) run on their own clock; nothing else may have been sent.
    expect(commands.slice(commandsBefore).filter((op) => op !== 1)).toEqual([]);
    expect(requests.slice(requestsBefore)).toEqual([]);
  });
});
