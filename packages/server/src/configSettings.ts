import { isIPv6 } from 'node:net';
import { DEFAULT_SCRYPT_COST, hashSecret } from './domain/credentials.js';
import { SECRET_KEY_BYTES, parseKeyring } from './domain/keyring.js';
import { parseCorsOrigins } from './domain/corsOrigins.js';
import { DEFAULT_ACTIVITY_HOST, activityHostProblem } from './domain/activityHost.js';
import {
  DEFAULT_WEB_DIR,
  LOG_FORMATS,
  LOG_LEVELS,
  SERVER_ROLES,
  type RawConfig,
  type Setting,
  type TrustProxy,
} from './configTypes.js';
import { integer, onOff } from './configParsers.js';
import { DEPLOY_SETTINGS } from './configDeploySettings.js';

export { integer, onOff } from './configParsers.js';

/** The longest NATS subject prefix (a stream name is made of it). */
const NATS_PREFIX_MAX_LENGTH = 64;
/** Six minutes: the gateway's resume window (five) and a margin. */
export const DEFAULT_NATS_HISTORY_SECONDS = 360;

export const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;

/** An IPv4 or IPv6 address with an optional /prefix, the forms proxy-addr accepts. */
function addressRange(raw: string): boolean {
  const [address = '', prefix, extra] = raw.split('/');
  if (extra !== undefined) return false;
  const v4 = IPV4.test(address);
  const v6 = !v4 && isIPv6(address);
  if (!v4 && !v6) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (v4 ? 32 : 128);
}

function trustProxy(raw: string): TrustProxy | undefined {
  // A number is a hop count (0: none), never on/off's "1" meaning every proxy.
  if (/^\d{1,2}$/.test(raw)) return Number(raw) === 0 ? false : Number(raw);
  const flag = onOff(raw);
  if (flag !== undefined) return flag;
  const ranges = raw.split(',').map((part) => part.trim());
  return ranges.every(addressRange) ? ranges : undefined;
}

function url(protocols: string[]) {
  return (raw: string) => {
    try {
      return protocols.includes(new URL(raw).protocol) ? raw : undefined;
    } catch {
      return undefined;
    }
  };
}

/** `host:port` or `[v6]:port`, split; undefined when it is neither. */
export function parseHostPort(raw: string): { host: string; port: number } | undefined {
  const match = /^(?:\[([\w.:]+)\]|([\w.-]+)):(\d{1,5})$/.exec(raw);
  const port = integer(1, 65535)(match?.[3] ?? '');
  const host = match?.[1] ?? match?.[2];
  return host === undefined || port === undefined ? undefined : { host, port };
}

export const SETTINGS = {
  host: {
    env: 'GUILDHALL_HOST',
    flag: '--host',
    allowed: 'a host name or IP address to listen on',
    defaultValue: '127.0.0.1',
    parse: (raw: string) => (/^[\w.:-]+$/.test(raw) ? raw : undefined),
  },
  port: {
    env: 'GUILDHALL_PORT',
    flag: '--port',
    allowed: 'an integer from 0 to 65535 (0 picks a free port)',
    defaultValue: 8080,
    parse: integer(0, 65535),
  },
  dataDir: {
    env: 'GUILDHALL_DATA_DIR',
    flag: '--data-dir',
    allowed: 'a folder path',
    defaultValue: './data',
    parse: (raw: string) => (raw.length > 0 ? raw : undefined),
  },
  ...DEPLOY_SETTINGS,
  databaseUrl: {
    env: 'DATABASE_URL',
    flag: '--database-url',
    allowed: 'a postgres:// or postgresql:// URL (unset: SQLite in the data folder)',
    defaultValue: null,
    parse: url(['postgres:', 'postgresql:']),
  },
  natsUrl: {
    env: 'NATS_URL',
    flag: '--nats-url',
    allowed: 'a nats:// URL (unset: the in-process bus)',
    defaultValue: null,
    parse: url(['nats:', 'tls:']),
  },
  natsSubjectPrefix: {
    env: 'GUILDHALL_NATS_PREFIX',
    flag: '--nats-prefix',
    allowed:
      'dot-separated tokens of letters, digits, _ and - ending with a dot, at most 64 characters, the same on every node (the prefix of every NATS subject)',
    defaultValue: 'guildhall.',
    parse: (raw: string) =>
      raw.length <= NATS_PREFIX_MAX_LENGTH && /^(?:[\w-]+\.)+$/.test(raw) ? raw : undefined,
  },
  natsHistorySeconds: {
    env: 'GUILDHALL_NATS_HISTORY_SECONDS',
    flag: '--nats-history-seconds',
    allowed:
      'an integer from 0 to 86400 (seconds NATS keeps dispatches for a gateway taking over a dead one; 0: none)',
    defaultValue: DEFAULT_NATS_HISTORY_SECONDS,
    parse: integer(0, 24 * 60 * 60),
  },
  redisUrl: {
    env: 'REDIS_URL',
    flag: '--redis-url',
    allowed:
      "a redis:// or rediss:// URL, the same on every node (unset: limits and presences in this process's memory)",
    defaultValue: null,
    parse: url(['redis:', 'rediss:']),
  },
  redisKeyPrefix: {
    env: 'GUILDHALL_REDIS_PREFIX',
    flag: '--redis-prefix',
    allowed: '1 to 64 letters, digits and _ . : - (the prefix of every Redis key)',
    defaultValue: 'guildhall:',
    parse: (raw: string) => (/^[\w.:-]{1,64}$/.test(raw) ? raw : undefined),
  },
  workerId: {
    env: 'GUILDHALL_WORKER_ID',
    flag: '--worker-id',
    allowed:
      'an integer from 0 to 31, different for every process sharing a database (unset: leased from PostgreSQL, 0 on SQLite)',
    defaultValue: null,
    parse: integer(0, 31),
  },
  publicUrl: {
    env: 'GUILDHALL_PUBLIC_URL',
    flag: '--public-url',
    allowed: 'an http:// or https:// URL',
    defaultValue: null,
    parse: (raw: string) => url(['http:', 'https:'])(raw)?.replace(/\/+$/, ''),
  },
  logLevel: {
    env: 'GUILDHALL_LOG_LEVEL',
    flag: '--log-level',
    allowed: `one of ${LOG_LEVELS.join(', ')}`,
    defaultValue: 'info',
    parse: (raw: string) => LOG_LEVELS.find((level) => level === raw),
  },
  logFormat: {
    env: 'GUILDHALL_LOG_FORMAT',
    flag: '--log-format',
    allowed:
      'json, pretty or auto (auto: on a terminal, pretty lines without the successful requests; JSON otherwise)',
    defaultValue: 'auto',
    parse: (raw: string) => LOG_FORMATS.find((format) => format === raw),
  },
  rateLimits: {
    env: 'GUILDHALL_RATE_LIMITS',
    flag: '--rate-limits',
    allowed: 'on or off',
    defaultValue: true,
    parse: onOff,
  },
  globalRateLimitPerSecond: {
    env: 'GUILDHALL_GLOBAL_RATE_LIMIT',
    flag: '--global-rate-limit',
    allowed: 'an integer from 1 to 1000000 (requests per second per bot)',
    defaultValue: 50,
    parse: integer(1, 1_000_000),
  },
  routeRateLimit: {
    env: 'GUILDHALL_ROUTE_RATE_LIMIT',
    flag: '--route-rate-limit',
    allowed: 'REQUESTS/SECONDS, such as 5/5 (the default bucket of each route)',
    defaultValue: { limit: 5, windowMs: 5000 },
    parse: (raw: string) => {
      const match = /^(\d{1,7})\/(\d{1,6}(?:\.\d{1,3})?)$/.exec(raw);
      if (match === null) return undefined;
      const limit = Number(match[1]);
      const windowMs = Math.round(Number(match[2]) * 1000);
      return limit >= 1 && windowMs >= 1 ? { limit, windowMs } : undefined;
    },
  },
  trustProxy: {
    env: 'GUILDHALL_TRUST_PROXY',
    flag: '--trust-proxy',
    allowed:
      'off, on (any proxy), a hop count from 1 to 99, or proxy addresses and CIDR ranges (comma-separated)',
    defaultValue: false,
    parse: trustProxy,
  },
  maxBodyBytes: {
    env: 'GUILDHALL_MAX_BODY_BYTES',
    flag: '--max-body-bytes',
    allowed: 'an integer from 1024 to 1073741824',
    defaultValue: 1024 * 1024,
    parse: integer(1024, 1024 ** 3),
  },
  maxAttachmentBytes: {
    env: 'GUILDHALL_MAX_ATTACHMENT_BYTES',
    flag: '--max-attachment-bytes',
    allowed: 'an integer from 1024 to 1073741824',
    defaultValue: 20 * 1024 * 1024,
    parse: integer(1024, 1024 ** 3),
  },
  maxUploadBytes: {
    env: 'GUILDHALL_MAX_UPLOAD_BYTES',
    flag: '--max-upload-bytes',
    allowed: 'an integer from 1024 to 10737418240 (unset: 10 x the largest attachment)',
    defaultValue: null,
    parse: integer(1024, 10 * 1024 ** 3),
  },
  attachmentUrlSeconds: {
    env: 'GUILDHALL_ATTACHMENT_URL_SECONDS',
    flag: '--attachment-url-seconds',
    allowed: 'an integer from 60 to 2592000 (how long a signed attachment URL is valid)',
    defaultValue: 24 * 60 * 60,
    parse: integer(60, 30 * 24 * 60 * 60),
  },
  authCacheSeconds: {
    env: 'GUILDHALL_AUTH_CACHE_SECONDS',
    flag: '--auth-cache-seconds',
    allowed: 'an integer from 0 to 3600',
    defaultValue: 30,
    parse: integer(0, 3600),
  },
  sessionTtlDays: {
    env: 'GUILDHALL_SESSION_TTL_DAYS',
    flag: '--session-ttl-days',
    allowed: 'an integer from 1 to 3650 (days a session token lives unused)',
    defaultValue: 30,
    parse: integer(1, 3650),
  },
  passwordScryptLog2N: {
    env: 'GUILDHALL_PASSWORD_SCRYPT_LOG2N',
    flag: '--password-scrypt-log2n',
    allowed: "an integer from 14 to 20 (scrypt N = 2^value; 17 is OWASP's figure)",
    defaultValue: DEFAULT_SCRYPT_COST.log2N,
    parse: integer(14, 20),
  },
  demo: {
    env: 'GUILDHALL_DEMO',
    flag: '--demo',
    allowed: 'on or off',
    defaultValue: true,
    parse: onOff,
  },
  oidcAllowInsecureLocal: {
    env: 'GUILDHALL_OIDC_ALLOW_INSECURE_LOCAL',
    flag: '--oidc-allow-insecure-local',
    allowed: 'on or off (on, for development: http://127.0.0.1 OpenID issuers are accepted)',
    defaultValue: false,
    parse: onOff,
  },
  adminTokenHash: {
    env: 'GUILDHALL_ADMIN_TOKEN',
    flag: '--admin-token',
    allowed: 'a secret of 32 to 512 characters for the /admin routes (kept only as its SHA-256)',
    defaultValue: null,
    parse: (raw: string) => (/^[\x21-\x7e]{32,512}$/.test(raw) ? hashSecret(raw) : undefined),
  },
  control: {
    env: 'GUILDHALL_CONTROL',
    flag: '--control',
    allowed:
      'on, off or auto (the test controls under /_guildhall/v1/ and the request log, docs/testing.md; auto: on while the host is a loopback address)',
    defaultValue: 'auto',
    parse: (raw: string): boolean | 'auto' | undefined => (raw === 'auto' ? 'auto' : onOff(raw)),
  },
  metricsTokenHash: {
    env: 'GUILDHALL_METRICS_TOKEN',
    flag: '--metrics-token',
    allowed:
      'a secret of 32 to 512 characters GET /metrics requires as a Bearer token (kept only as its SHA-256)',
    defaultValue: null,
    parse: (raw: string) => (/^[\x21-\x7e]{32,512}$/.test(raw) ? hashSecret(raw) : undefined),
  },
  metricsListen: {
    env: 'GUILDHALL_METRICS_LISTEN',
    flag: '--metrics-listen',
    allowed:
      'HOST:PORT to serve /metrics on its own listener, such as 127.0.0.1:9464 or [::1]:9464',
    defaultValue: null,
    parse: (raw: string) => {
      const match = /^(?:\[([\w.:]+)\]|([\w.-]+)):(\d{1,5})$/.exec(raw);
      const port = integer(0, 65535)(match?.[3] ?? '');
      const host = match?.[1] ?? match?.[2];
      return host === undefined || port === undefined ? undefined : { host, port };
    },
  },
  secretKey: {
    env: 'GUILDHALL_SECRET_KEY',
    flag: '--secret-key',
    allowed: `${String(SECRET_KEY_BYTES)} random bytes in base64 (openssl rand -base64 32), the same on every node; during a rotation a keyring: "<key>, <key> next" or "<key>, <key> until <UTC time>" (docs/operations.md)`,
    defaultValue: null,
    parse: (raw: string) => {
      const parsed = parseKeyring(raw);
      return 'keyring' in parsed ? parsed.keyring : undefined;
    },
  },
  secretKeyRetireHours: {
    env: 'GUILDHALL_SECRET_KEY_RETIRE_HOURS',
    flag: '--secret-key-retire-hours',
    allowed:
      'an integer from 1 to 8760 (hours the previous key still opens and verifies after `guildhall secrets rotate`)',
    defaultValue: 24,
    parse: integer(1, 8760),
  },
  allowLocalWebhooks: {
    env: 'GUILDHALL_ALLOW_LOCAL_WEBHOOKS',
    flag: '--allow-local-webhooks',
    allowed: 'on or off (on, for development: webhook events may go to loopback URLs)',
    defaultValue: false,
    parse: onOff,
  },
  role: {
    env: 'GUILDHALL_ROLE',
    flag: '--role',
    allowed: `one of ${SERVER_ROLES.join(', ')} (api and gateway processes share NATS; all serves api, gateway and voice)`,
    defaultValue: 'all',
    parse: (raw: string) => SERVER_ROLES.find((role) => role === raw),
  },
  gatewayUrl: {
    env: 'GUILDHALL_GATEWAY_URL',
    flag: '--gateway-url',
    allowed: "a ws:// or wss:// URL (unset: this server's own /gateway)",
    defaultValue: null,
    parse: (raw: string) => url(['ws:', 'wss:'])(raw)?.replace(/\/+$/, ''),
  },
  gatewayIdentifyTimeoutSeconds: {
    env: 'GUILDHALL_GATEWAY_IDENTIFY_TIMEOUT',
    flag: '--gateway-identify-timeout',
    allowed: 'an integer from 1 to 600 (seconds a connection may wait before it identifies)',
    defaultValue: 20,
    parse: integer(1, 600),
  },
  gatewayMaxUnidentifiedPerAddress: {
    env: 'GUILDHALL_GATEWAY_MAX_UNIDENTIFIED',
    flag: '--gateway-max-unidentified',
    allowed: 'an integer from 1 to 100000 (gateway connections per address not yet identified)',
    defaultValue: 32,
    parse: integer(1, 100_000),
  },
  gatewayMaxBufferedBytes: {
    env: 'GUILDHALL_GATEWAY_MAX_BUFFERED_BYTES',
    flag: '--gateway-max-buffered-bytes',
    allowed: 'an integer from 65536 to 1073741824 (bytes queued for a slow gateway client)',
    defaultValue: 4 * 1024 * 1024,
    parse: integer(64 * 1024, 1024 ** 3),
  },
  webDir: {
    env: 'GUILDHALL_WEB_DIR',
    flag: '--web-dir',
    allowed: 'a folder path (the web client and portal build; default: packages/web/dist)',
    defaultValue: DEFAULT_WEB_DIR,
    parse: (raw: string) => (raw.length > 0 ? raw : undefined),
  },
  corsOrigins: {
    env: 'GUILDHALL_CORS_ORIGINS',
    flag: '--cors-origins',
    allowed:
      '*, off, or comma-separated origins such as https://game.example.com (pages that may call the API from a browser)',
    defaultValue: '*',
    parse: parseCorsOrigins,
  },
  activityHost: {
    env: 'GUILDHALL_ACTIVITY_HOST',
    flag: '--activity-host',
    allowed:
      "a host name whose first label is {application_id}, such as {application_id}.activities.example.com (each activity's origin)",
    defaultValue: DEFAULT_ACTIVITY_HOST,
    parse: (raw: string) => (activityHostProblem(raw) === null ? raw.toLowerCase() : undefined),
  },
  activityAllowLoopback: {
    env: 'GUILDHALL_ACTIVITY_ALLOW_LOOPBACK',
    flag: '--activity-allow-loopback',
    allowed: 'on or off (on, for development: activity URL mappings may target loopback addresses)',
    defaultValue: false,
    parse: onOff,
  },
  activityMaxBodyBytes: {
    env: 'GUILDHALL_ACTIVITY_MAX_BODY_BYTES',
    flag: '--activity-max-body-bytes',
    allowed:
      'an integer from 1024 to 1073741824 (the largest request body the activity proxy forwards)',
    defaultValue: 16 * 1024 * 1024,
    parse: integer(1024, 1024 ** 3),
  },
  voicePort: {
    env: 'GUILDHALL_VOICE_PORT',
    flag: '--voice-port',
    allowed:
      'an integer from 0 to 65535 (TCP for the voice WebSocket and UDP for media; unset: the API port + 1)',
    defaultValue: null,
    parse: integer(0, 65535),
  },
  voiceHost: {
    env: 'GUILDHALL_VOICE_HOST',
    flag: '--voice-host',
    allowed: 'a host name or IP address the voice node listens on (unset: the API host)',
    defaultValue: null,
    parse: (raw: string) => (/^[\w.:-]+$/.test(raw) ? raw : undefined),
  },
  voiceEndpoint: {
    env: 'GUILDHALL_VOICE_ENDPOINT',
    flag: '--voice-endpoint',
    allowed:
      'HOST:PORT clients reach this voice node at, no scheme, such as voice-1.example.com:443 (unset: the voice host and port)',
    defaultValue: null,
    parse: (raw: string) => (parseHostPort(raw) === undefined ? undefined : raw),
  },
  voicePublicIp: {
    env: 'GUILDHALL_VOICE_PUBLIC_IP',
    flag: '--voice-public-ip',
    allowed: 'an IPv4 address clients send media to (unset: the voice endpoint host)',
    defaultValue: null,
    parse: (raw: string) => (IPV4.test(raw) ? raw : undefined),
  },
  voiceTlsCert: {
    env: 'GUILDHALL_VOICE_TLS_CERT',
    flag: '--voice-tls-cert',
    allowed:
      'the path of a PEM certificate for the voice WebSocket, with --voice-tls-key (unset: self-signed in the data folder)',
    defaultValue: null,
    parse: (raw: string) => (raw.length > 0 ? raw : undefined),
  },
  voiceTlsKey: {
    env: 'GUILDHALL_VOICE_TLS_KEY',
    flag: '--voice-tls-key',
    allowed: 'the path of the PEM private key of --voice-tls-cert',
    defaultValue: null,
    parse: (raw: string) => (raw.length > 0 ? raw : undefined),
  },
  voiceMaxMembers: {
    env: 'GUILDHALL_VOICE_MAX_MEMBERS',
    flag: '--voice-max-members',
    allowed: 'an integer from 2 to 1000 (members of one voice call)',
    defaultValue: 99,
    parse: integer(2, 1000),
  },
  voiceMaxPacketBytes: {
    env: 'GUILDHALL_VOICE_MAX_PACKET_BYTES',
    flag: '--voice-max-packet-bytes',
    allowed: 'an integer from 256 to 65507 (the largest UDP datagram the media relay accepts)',
    defaultValue: 1400,
    parse: integer(256, 65507),
  },
  autoModerationBudgetMs: {
    env: 'GUILDHALL_AUTOMOD_BUDGET_MS',
    flag: '--automod-budget-ms',
    allowed:
      "an integer from 1 to 10000 (ms of CPU one message's auto-moderation rules may take together)",
    defaultValue: 50,
    parse: integer(1, 10_000),
  },
} as const satisfies { [K in keyof RawConfig]: Setting<RawConfig[K]> };
