/**
 * The frame protocol's argument checks: the error a command answers with, the small argument
 * readers every command uses, and SET_ACTIVITY's activity as the presence the client publishes
 * (the platform's rules for its fields).
 *
 * @module
 */
import { ActivityFlags, RpcErrorCodes, withActivityFlags } from '@guildhall/protocol';

/** A rich presence as SET_ACTIVITY publishes it (gateway op 3's activity). */
export interface PresenceActivity {
  name: string;
  type: number;
  application_id: string;
  created_at: number;
  state?: string;
  state_url?: string;
  details?: string;
  details_url?: string;
  timestamps?: { start?: number; end?: number };
  assets?: Record<string, string>;
  party?: { id?: string; size?: [number, number] };
  secrets?: Record<string, string>;
  instance?: boolean;
  /** EMBEDDED, and what the activity holds (JOIN for a join secret, …): gateway op 3's rule. */
  flags: number;
}

/** An error a command answers with (`evt: "ERROR"`). */
export class FrameCommandError extends Error {
  readonly code: number;
  constructor(code: number, message: string) {
    super(message);
    this.name = 'FrameCommandError';
    this.code = code;
  }
}

/** SET_ACTIVITY's allowed activity types: Playing, Listening, Watching, Competing. */
const ACTIVITY_TYPES = new Set([0, 2, 3, 5]);
export const LOG_LEVELS = new Set(['log', 'warn', 'debug', 'info', 'error']);
/** Rich presence text fields: 2 to 128 characters on the platform. */
const TEXT_MAX = 128;
/** `state_url`, `details_url` and the assets' URLs: http(s), at most this long (gateway op 3). */
const URL_MAX = 256;

export type Args = Record<string, unknown>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function invalid(message: string): FrameCommandError {
  return new FrameCommandError(RpcErrorCodes.INVALID_PAYLOAD, message);
}

/** A string argument, or an INVALID_PAYLOAD error naming it. */
export function stringArg(args: Args, name: string): string {
  const value = args[name];
  if (typeof value !== 'string' || value === '') throw invalid(`${name} must be a string`);
  return value;
}

export function optionalString(args: Args, name: string): string | null {
  const value = args[name];
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid(`${name} must be a string`);
  return value;
}

/** A rich presence text (state, details, asset texts): 1–128 characters. */
function presenceText(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length === 0 || value.length > TEXT_MAX) {
    throw invalid(`activity.${name} must be 1 to ${TEXT_MAX} characters`);
  }
  return value;
}

/** A rich presence URL (state_url, details_url, the assets' URLs): http(s), ≤ 256 characters. */
function presenceUrl(value: unknown, name: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.length > URL_MAX || !isExternalUrl(value)) {
    throw invalid(`activity.${name} must be an http or https URL of at most ${URL_MAX} characters`);
  }
  return value;
}

function timestamps(value: unknown): PresenceActivity['timestamps'] {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw invalid('activity.timestamps must be an object');
  const out: { start?: number; end?: number } = {};
  for (const key of ['start', 'end'] as const) {
    const stamp = value[key];
    if (stamp === undefined || stamp === null) continue;
    if (typeof stamp !== 'number' || !Number.isSafeInteger(stamp) || stamp < 0) {
      throw invalid(`activity.timestamps.${key} must be a Unix time in milliseconds`);
    }
    out[key] = stamp;
  }
  return out;
}

/** The members `keys` of an object of texts; those ending in `_url` are URLs. */
function stringFields(value: unknown, name: string, keys: string[]): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (!isRecord(value)) throw invalid(`activity.${name} must be an object`);
  const out: Record<string, string> = {};
  for (const key of keys) {
    const member = `${name}.${key}`;
    const text = key.endsWith('_url')
      ? presenceUrl(value[key], member)
      : presenceText(value[key], member);
    if (text !== undefined) out[key] = text;
  }
  return out;
}

function party(value: unknown): PresenceActivity['party'] {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw invalid('activity.party must be an object');
  const out: { id?: string; size?: [number, number] } = {};
  const id = presenceText(value['id'], 'party.id');
  if (id !== undefined) out.id = id;
  const size = value['size'];
  if (size !== undefined && size !== null) {
    const [current, max] = Array.isArray(size) ? (size as unknown[]) : [];
    if (
      !Array.isArray(size) ||
      size.length !== 2 ||
      typeof current !== 'number' ||
      typeof max !== 'number' ||
      !Number.isSafeInteger(current) ||
      !Number.isSafeInteger(max) ||
      current < 1 ||
      max < current
    ) {
      throw invalid('activity.party.size must be [current, max] with 1 <= current <= max');
    }
    out.size = [current, max];
  }
  return out;
}

/** SET_ACTIVITY's `activity` as the presence the client publishes for the app. */
export function presenceFromArgs(
  raw: unknown,
  app: { id: string; name: string },
  nowMs: number,
): PresenceActivity | null {
  if (raw === null) return null;
  if (!isRecord(raw)) throw invalid('activity must be an object or null');
  const type = raw['type'] ?? 0;
  if (typeof type !== 'number' || !ACTIVITY_TYPES.has(type)) {
    throw invalid('activity.type must be 0 (Playing), 2, 3 or 5');
  }
  const activity: PresenceActivity = {
    name: app.name,
    type,
    application_id: app.id,
    created_at: nowMs,
    flags: ActivityFlags.EMBEDDED,
  };
  const state = presenceText(raw['state'], 'state');
  if (state !== undefined) activity.state = state;
  const stateUrl = presenceUrl(raw['state_url'], 'state_url');
  if (stateUrl !== undefined) activity.state_url = stateUrl;
  const details = presenceText(raw['details'], 'details');
  if (details !== undefined) activity.details = details;
  const detailsUrl = presenceUrl(raw['details_url'], 'details_url');
  if (detailsUrl !== undefined) activity.details_url = detailsUrl;
  const times = timestamps(raw['timestamps']);
  if (times !== undefined) activity.timestamps = times;
  const assets = stringFields(raw['assets'], 'assets', [
    'large_image',
    'large_text',
    'large_url',
    'small_image',
    'small_text',
    'small_url',
  ]);
  if (Object.keys(assets).length > 0) activity.assets = assets;
  const group = party(raw['party']);
  if (group !== undefined) activity.party = group;
  // The SDK's SET_ACTIVITY takes a join and a match secret, no spectate secret (embedded apps
  // cannot be spectated).
  const secrets = stringFields(raw['secrets'], 'secrets', ['join', 'match']);
  if (Object.keys(secrets).length > 0) activity.secrets = secrets;
  if (raw['instance'] !== undefined && raw['instance'] !== null) {
    if (typeof raw['instance'] !== 'boolean') throw invalid('activity.instance must be a boolean');
    activity.instance = raw['instance'];
  }
  return withActivityFlags(activity);
}

/** Whether a URL may leave the client through OPEN_EXTERNAL_LINK: http(s) only. */
export function isExternalUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
