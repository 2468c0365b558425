/**
 * @module rpc/commandsVoice: the voice commands, on the daemon person's voice state and voice
 * settings (docs/rpc.md, Voice): SELECT_VOICE_CHANNEL sends op 4 through the daemon's gateway
 * session and answers once the platform reports the person there; GET_SELECTED_VOICE_CHANNEL
 * reads where the person is (whichever of their clients joined); GET/SET_VOICE_SETTINGS read and
 * write the Social SDK's voice settings, the daemon's own; SELECT_TEXT_CHANNEL checks and answers
 * the channel. All need AUTHENTICATE with `rpc`.
 */
import { AudioModeType } from '@guildhall/social-sdk';
import { ChannelTypes, RpcErrorCodes } from '@guildhall/protocol';
import {
  CHANNEL,
  idArg,
  readChannel,
  rpcChannel,
  type Args,
  type CommandContext,
  type CommandSpec,
  type Handler,
} from './commandArgs.js';
import type { LocalClient, VoiceSettingsChange } from './localClient.js';
import { RpcError } from './types.js';

/** How long SELECT_VOICE_CHANNEL waits for the platform by default, and at most (seconds). */
const DEFAULT_SELECT_TIMEOUT_S = 10;
const MAX_SELECT_TIMEOUT_S = 60;
const VOICE_TYPES: readonly number[] = [ChannelTypes.GUILD_VOICE, ChannelTypes.GUILD_STAGE_VOICE];
const TEXT_TYPES: readonly number[] = [
  ChannelTypes.GUILD_TEXT,
  ChannelTypes.DM,
  ChannelTypes.GROUP_DM,
  ChannelTypes.GUILD_ANNOUNCEMENT,
  ChannelTypes.ANNOUNCEMENT_THREAD,
  ChannelTypes.PUBLIC_THREAD,
  ChannelTypes.PRIVATE_THREAD,
  ChannelTypes.GUILD_VOICE,
  ChannelTypes.GUILD_STAGE_VOICE,
];

function nullableChannel(args: Args): string | null {
  return args['channel_id'] === null || args['channel_id'] === undefined
    ? null
    : idArg(args, CHANNEL);
}

function timeoutMs(args: Args): number {
  const given = args['timeout'];
  const seconds = typeof given === 'number' && given > 0 ? given : DEFAULT_SELECT_TIMEOUT_S;
  return Math.min(seconds, MAX_SELECT_TIMEOUT_S) * 1000;
}

async function moveTo(
  ctx: CommandContext,
  target: { guildId: string; channelId: string | null },
  waitMs: number,
) {
  const settings = ctx.local.voiceSettings();
  const sent = ctx.local.sendVoiceState({
    guild_id: target.guildId,
    channel_id: target.channelId,
    self_mute: settings.selfMute(),
    self_deaf: settings.selfDeaf(),
  });
  if (!sent) {
    throw new RpcError(RpcErrorCodes.UNKNOWN_ERROR, 'The client is not connected to the platform.');
  }
  if (!(await ctx.local.voice.waitForOwn(target.channelId, waitMs))) {
    throw new RpcError(
      RpcErrorCodes.SELECT_CHANNEL_TIMED_OUT,
      'The platform did not move the user in time (no permission to connect, or the channel is full).',
    );
  }
}

/** SELECT_VOICE_CHANNEL `{channel_id, timeout?, force?}`: null leaves voice. */
const selectVoiceChannel: Handler = async (ctx, args) => {
  const channelId = nullableChannel(args);
  const own = ctx.local.voice.own();
  if (channelId === null) {
    if (own !== null) await moveTo(ctx, { guildId: own.guildId, channelId: null }, timeoutMs(args));
    return { data: null };
  }
  const channel = await readChannel(ctx, channelId);
  if (!VOICE_TYPES.includes(channel.type) || channel.guild_id === undefined) {
    throw new RpcError(
      RpcErrorCodes.INVALID_CHANNEL,
      `Channel ${channelId} is not a voice channel.`,
    );
  }
  if (own !== null && own.channelId !== channelId && args['force'] !== true) {
    throw new RpcError(
      RpcErrorCodes.SELECT_VOICE_FORCE_REQUIRED,
      'The user is already in another voice channel: pass force to move them.',
    );
  }
  await moveTo(ctx, { guildId: channel.guild_id, channelId }, timeoutMs(args));
  return { data: rpcChannel(ctx, channel) };
};

const getSelectedVoiceChannel: Handler = async (ctx) => {
  const own = ctx.local.voice.own();
  if (own === null) return { data: null };
  return { data: rpcChannel(ctx, await readChannel(ctx, own.channelId)) };
};

/** SELECT_TEXT_CHANNEL `{channel_id, timeout?}`: the channel the person can read, or null. */
const selectTextChannel: Handler = async (ctx, args) => {
  const channelId = nullableChannel(args);
  if (channelId === null) return { data: null };
  const channel = await readChannel(ctx, channelId);
  if (!TEXT_TYPES.includes(channel.type)) {
    throw new RpcError(RpcErrorCodes.INVALID_CHANNEL, `Channel ${channelId} has no messages.`);
  }
  return { data: rpcChannel(ctx, channel) };
};

// ── Voice settings ─────────────────────────────────────────────────────────────────────────

/** What the daemon answers for the parts of voice settings it has no hardware for. */
const FIXED = { auto_threshold: true, threshold: -60, delay: 20 } as const;
const NO_PROCESSING = [
  'automatic_gain_control',
  'echo_cancellation',
  'noise_suppression',
  'qos',
  'silence_warning',
] as const;

/** GET_VOICE_SETTINGS' answer from the SDK's settings (Node has no audio devices). */
export function rpcVoiceSettings(local: LocalClient) {
  const s = local.voiceSettings();
  const key = s.pttKey();
  return {
    input: { device_id: 'default', volume: s.inputVolume(), available_devices: [] },
    output: { device_id: 'default', volume: s.outputVolume(), available_devices: [] },
    mode: {
      type: s.audioMode() === AudioModeType.PTT ? 'PUSH_TO_TALK' : 'VOICE_ACTIVITY',
      ...FIXED,
      shortcut: key === null ? [] : [{ type: 0, code: 0, name: key }],
    },
    ...Object.fromEntries(NO_PROCESSING.map((name) => [name, false])),
    deaf: s.selfDeaf(),
    mute: s.selfMute(),
  };
}

function invalid(message: string): RpcError {
  return new RpcError(RpcErrorCodes.INVALID_PAYLOAD, message);
}

function object(value: unknown, name: string): Record<string, unknown> | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value))
    throw invalid(`${name} must be an object.`);
  return value as Record<string, unknown>;
}

function volumeOf(io: Record<string, unknown> | null, name: string, max: number) {
  if (io === null) return undefined;
  const device = io['device_id'];
  if (device !== undefined && device !== 'default') {
    throw invalid(`${name}.device_id: the client has no audio device ${JSON.stringify(device)}.`);
  }
  const volume = io['volume'];
  if (volume === undefined) return undefined;
  if (typeof volume !== 'number' || !(volume >= 0 && volume <= max)) {
    throw invalid(`${name}.volume must be a number from 0 to ${max}.`);
  }
  return volume;
}

function modeChange(mode: Record<string, unknown> | null): VoiceSettingsChange {
  if (mode === null) return {};
  const change: VoiceSettingsChange = {};
  if (mode['type'] !== undefined) {
    if (mode['type'] !== 'PUSH_TO_TALK' && mode['type'] !== 'VOICE_ACTIVITY') {
      throw invalid('mode.type must be PUSH_TO_TALK or VOICE_ACTIVITY.');
    }
    change.audioMode = mode['type'] === 'PUSH_TO_TALK' ? AudioModeType.PTT : AudioModeType.VAD;
  }
  for (const [name, value] of Object.entries(FIXED)) {
    if (mode[name] !== undefined && mode[name] !== value) {
      throw invalid(`mode.${name}: the client detects no voice activity; it is ${value}.`);
    }
  }
  const shortcut = mode['shortcut'];
  if (shortcut !== undefined) {
    const first = Array.isArray(shortcut) ? (shortcut[0] as { name?: unknown } | undefined) : null;
    const name = first?.name;
    if (first === null || (first !== undefined && typeof name !== 'string')) {
      throw invalid('mode.shortcut must be a list of keys with names.');
    }
    change.pttKey = typeof name === 'string' ? name : null;
  }
  return change;
}

/** SET_VOICE_SETTINGS: the fields given change; the answer is every setting. */
const setVoiceSettings: Handler = (ctx, args) => {
  const change: VoiceSettingsChange = {
    ...modeChange(object(args['mode'], 'mode')),
  };
  const input = volumeOf(object(args['input'], 'input'), 'input', 100);
  const output = volumeOf(object(args['output'], 'output'), 'output', 200);
  if (input !== undefined) change.inputVolume = input;
  if (output !== undefined) change.outputVolume = output;
  for (const name of ['mute', 'deaf'] as const) {
    const value = args[name];
    if (value === undefined) continue;
    if (typeof value !== 'boolean') throw invalid(`${name} must be a boolean.`);
    change[name === 'mute' ? 'selfMute' : 'selfDeaf'] = value;
  }
  for (const name of NO_PROCESSING) {
    if (args[name] === true) throw invalid(`${name}: the client processes no microphone audio.`);
  }
  ctx.local.changeVoiceSettings(change);
  const own = ctx.local.voice.own();
  // The person's voice state follows when the daemon is the client in voice.
  if (own !== null && own.sessionId === ctx.local.sessionId()) {
    const s = ctx.local.voiceSettings();
    if (own.selfMute !== s.selfMute() || own.selfDeaf !== s.selfDeaf()) {
      ctx.local.sendVoiceState({
        guild_id: own.guildId,
        channel_id: own.channelId,
        self_mute: s.selfMute(),
        self_deaf: s.selfDeaf(),
      });
    }
  }
  return Promise.resolve({ data: rpcVoiceSettings(ctx.local) });
};

const getVoiceSettings: Handler = (ctx) => Promise.resolve({ data: rpcVoiceSettings(ctx.local) });

export const VOICE_COMMANDS: Readonly<Record<string, CommandSpec>> = {
  SELECT_VOICE_CHANNEL: { scope: 'rpc', run: selectVoiceChannel },
  GET_SELECTED_VOICE_CHANNEL: { scope: 'rpc', run: getSelectedVoiceChannel },
  SELECT_TEXT_CHANNEL: { scope: 'rpc', run: selectTextChannel },
  GET_VOICE_SETTINGS: { scope: 'rpc', run: getVoiceSettings },
  SET_VOICE_SETTINGS: { scope: 'rpc', run: setVoiceSettings },
};
