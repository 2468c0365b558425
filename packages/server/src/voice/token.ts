/**
 * The voice token of VOICE_SERVER_UPDATE: what the main gateway grants a session (this user, this
 * session, this call) and the voice node checks at Identify. Stateless, so any voice node of the
 * deployment can check a token any gateway node issued: an HMAC-SHA256 over a compact binary
 * grant, keyed by a key derived (HKDF) from the server secret key every node shares.
 *
 * The token is `base64url(grant).base64url(mac)`: url-safe, at most {@link MAX_VOICE_TOKEN_LENGTH}
 * characters. Its grant is not secret (ids the holder knows), only unforgeable.
 */
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { VoiceGrant, VoiceTokens } from '../domain/voiceGrant.js';
import { keyringOf, liveKeys, type SecretKeyring } from '../domain/keyring.js';

export type { VoiceGrant, VoiceTokens };

export interface VoiceTokenOptions {
  /** How long a token may wait before voice Identify. */
  lifetimeMs: number;
}

export const DEFAULT_VOICE_TOKEN_OPTIONS = {
  lifetimeMs: 10 * 60_000,
} as const satisfies VoiceTokenOptions;

/** The longest token `verify` reads; longer input is refused before any decoding. */
export const MAX_VOICE_TOKEN_LENGTH = 256;

const FORMAT_VERSION = 1;
const HAS_GUILD = 1;
const MAC_BYTES = 32;
/** Session ids are the gateway's hex ids; anything longer than this is not one. */
const MAX_SESSION_ID_BYTES = 64;
const SNOWFLAKE = /^\d{1,20}$/;
const U64_MAX = (1n << 64n) - 1n;
const TOKEN_SHAPE = /^([A-Za-z0-9_-]{40,200})\.([A-Za-z0-9_-]{43})$/;
const SESSION_ID = /^[\x21-\x7e]+$/;
const HKDF_INFO = 'guildhall voice token v1';

function snowflake(value: string, field: string): bigint {
  const n = SNOWFLAKE.test(value) ? BigInt(value) : -1n;
  if (n < 0n || n > U64_MAX) throw new TypeError(`voice token: ${field} is not a snowflake`);
  return n;
}

function encode(grant: VoiceGrant): Buffer {
  const session = Buffer.from(grant.sessionId, 'utf8');
  if (!SESSION_ID.test(grant.sessionId) || session.length > MAX_SESSION_ID_BYTES) {
    throw new TypeError('voice token: sessionId must be 1 to 64 printable ASCII characters');
  }
  if (!Number.isSafeInteger(grant.expiresAtMs) || grant.expiresAtMs < 0) {
    throw new TypeError('voice token: expiresAtMs must be a safe non-negative integer');
  }
  const ids: [string, string][] = [
    ['userId', grant.userId],
    ['serverId', grant.serverId],
    ...(grant.guildId === null ? [] : [['guildId', grant.guildId] as [string, string]]),
    ['channelId', grant.channelId],
  ];
  const out = Buffer.alloc(2 + 8 + 8 * ids.length + 1 + session.length);
  let at = out.writeUInt8(FORMAT_VERSION, 0);
  at = out.writeUInt8(grant.guildId === null ? 0 : HAS_GUILD, at);
  at = out.writeBigUInt64BE(BigInt(grant.expiresAtMs), at);
  for (const [field, value] of ids) at = out.writeBigUInt64BE(snowflake(value, field), at);
  at = out.writeUInt8(session.length, at);
  session.copy(out, at);
  return out;
}

/** The grant in `bytes`, or null when they are not exactly one well-formed grant. */
function decode(bytes: Buffer): VoiceGrant | null {
  if (bytes.length < 2 || bytes.readUInt8(0) !== FORMAT_VERSION) return null;
  const flags = bytes.readUInt8(1);
  if (flags !== 0 && flags !== HAS_GUILD) return null;
  const idCount = flags === HAS_GUILD ? 4 : 3;
  const sessionAt = 2 + 8 + 8 * idCount;
  if (bytes.length < sessionAt + 1) return null;
  const sessionLength = bytes.readUInt8(sessionAt);
  if (sessionLength === 0 || bytes.length !== sessionAt + 1 + sessionLength) return null;
  const expiresAt = bytes.readBigUInt64BE(2);
  if (expiresAt > BigInt(Number.MAX_SAFE_INTEGER)) return null;
  const ids = Array.from({ length: idCount }, (_, i) =>
    bytes.readBigUInt64BE(10 + 8 * i).toString(),
  );
  const sessionId = bytes.toString('latin1', sessionAt + 1);
  if (!SESSION_ID.test(sessionId)) return null;
  const [userId = '', serverId = '', ...rest] = ids;
  const channelId = rest.at(-1) ?? '';
  return {
    userId,
    sessionId,
    serverId,
    guildId: flags === HAS_GUILD ? (rest[0] ?? null) : null,
    channelId,
    expiresAtMs: Number(expiresAt),
  };
}

/**
 * Voice tokens keyed by the deployment's secret key (secrets.ts), so every node issues and
 * checks the same tokens. During a rotation (domain/keyring.ts) tokens are issued with the
 * current key and checked with every live one, so a token issued before still works.
 */
export function createVoiceTokens(
  secretKey: SecretKeyring | Buffer,
  options: Partial<VoiceTokenOptions> = {},
): VoiceTokens {
  const keyring = Buffer.isBuffer(secretKey) ? keyringOf(secretKey) : secretKey;
  if (liveKeys(keyring, -Infinity).some((key) => key.length < 16)) {
    throw new TypeError('voice token: the secret key is too short');
  }
  const { lifetimeMs } = { ...DEFAULT_VOICE_TOKEN_OPTIONS, ...options };
  const macKey = (key: Buffer) =>
    Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), HKDF_INFO, 32));
  const macKeys = new Map<Buffer, Buffer>(
    liveKeys(keyring, -Infinity).map((key) => [key, macKey(key)]),
  );
  const mac = (key: Buffer, payload: Buffer) =>
    createHmac('sha256', macKeys.get(key) ?? macKey(key))
      .update(payload)
      .digest();
  return {
    issue(grant, nowMs) {
      const payload = encode({ ...grant, expiresAtMs: nowMs + lifetimeMs });
      const signature = mac(keyring.current, payload);
      return `${payload.toString('base64url')}.${signature.toString('base64url')}`;
    },
    verify(token, nowMs) {
      if (token.length > MAX_VOICE_TOKEN_LENGTH) return null;
      const match = TOKEN_SHAPE.exec(token);
      if (match === null) return null;
      const [, payloadText = '', macText = ''] = match;
      const payload = Buffer.from(payloadText, 'base64url');
      const given = Buffer.from(macText, 'base64url');
      // Only the canonical spelling: the spare bits of a last base64 character must be zero.
      if (payload.toString('base64url') !== payloadText) return null;
      if (given.length !== MAC_BYTES || given.toString('base64url') !== macText) return null;
      const signed = liveKeys(keyring, nowMs).some((key) =>
        timingSafeEqual(mac(key, payload), given),
      );
      if (!signed) return null;
      const grant = decode(payload);
      if (grant === null || nowMs >= grant.expiresAtMs) return null;
      return grant;
    },
  };
}
