import { resolve } from 'node:path';
import { parseFlags } from './cliFlags.js';
import { IPV4, SETTINGS, onOff, parseHostPort } from './configSettings.js';
import {
  ConfigError,
  roleServes,
  type Config,
  type DerivedSetting,
  type RawConfig,
  type Setting,
} from './configTypes.js';

export {
  ConfigError,
  DEFAULT_WEB_DIR,
  controlEnabled,
  LOG_LEVELS,
  SERVER_ROLES,
  roleServes,
  type Config,
  type LogFormat,
  type LogLevel,
  type ServerPart,
  type ServerRole,
  type TrustProxy,
} from './configTypes.js';
export { DEFAULT_NATS_HISTORY_SECONDS } from './configSettings.js';

/**
 * Settings whose bad value is not echoed: secrets, and the Redis URL, whose user name and
 * password (an ACL user, a bare password) a malformed value may not let us tell apart.
 */
const HIDDEN: ReadonlySet<keyof Config> = new Set([
  'adminTokenHash',
  'metricsTokenHash',
  'secretKey',
  'redisUrl',
  's3SecretAccessKey',
] as const);

/** A value fit to echo: a password in a URL is masked. */
function withoutPassword(raw: string): string {
  return raw.replace(/^([a-z][a-z0-9+.-]*:\/\/[^:/@]*:)[^@]*@/i, '$1***@');
}

/**
 * The flag of every setting, for the CLI's strict parser. An on/off setting is a switch: bare
 * `--demo` means on and `--no-demo` off, besides `--demo off`.
 */
export const CONFIG_FLAGS: readonly { name: string; isSwitch: boolean }[] = Object.values(
  SETTINGS,
).map((s: Setting<unknown>) => ({ name: s.flag.slice(2), isSwitch: s.parse === onOff }));

/** The environment variable of every setting (a deployment file may set only these). */
export const CONFIG_ENV_NAMES: readonly string[] = Object.values(SETTINGS).map((s) => s.env);

/** The help lines of some settings, in the settings table's order. */
export function settingsHelp(keys?: readonly (keyof typeof SETTINGS)[]): string[] {
  const settings: Setting<unknown>[] =
    keys === undefined ? Object.values(SETTINGS) : keys.map((key) => SETTINGS[key]);
  return settings.map((s) => `  ${s.flag.padEnd(22)} ${s.env.padEnd(28)} ${s.allowed}`);
}

/** The settings, for `--help`. */
export const CONFIG_HELP = settingsHelp();

/**
 * The settings an operator command reads: where the data is, the key that opens its secrets,
 * and the bus its changes are announced on (the other settings are a server's).
 */
export const OPERATOR_HELP = settingsHelp([
  'dataDir',
  'databaseUrl',
  'secretKey',
  'natsUrl',
  'natsSubjectPrefix',
]);

/**
 * Builds the config from the environment and command-line flags (a flag wins over its variable).
 * @throws ConfigError naming the first bad setting.
 */
export function loadConfig(
  env: Readonly<Record<string, string | undefined>>,
  argv: readonly string[] = [],
): Config {
  const { flags } = parseFlags(argv);
  const config: Record<string, unknown> = {};
  for (const [key, setting] of Object.entries(SETTINGS) as [keyof RawConfig, Setting<unknown>][]) {
    const fromFlag = flags.get(setting.flag.slice(2));
    const raw = fromFlag ?? env[setting.env];
    if (raw === undefined || raw === '') {
      config[key] = setting.defaultValue;
      continue;
    }
    const value = setting.parse(raw);
    if (value === undefined) {
      const source = fromFlag === undefined ? setting.env : setting.flag;
      throw new ConfigError(
        `${source} must be ${setting.allowed}; got "${HIDDEN.has(key) ? '[hidden]' : withoutPassword(raw)}".`,
      );
    }
    config[key] = value;
  }
  const result = config as unknown as RawConfig;
  if ((result.tlsCert === null) !== (result.tlsKey === null)) {
    throw new ConfigError('GUILDHALL_TLS_CERT and GUILDHALL_TLS_KEY must be set together.');
  }
  if (result.tlsCert !== null && result.tls === 'dev') {
    throw new ConfigError(
      'GUILDHALL_TLS=dev makes a development certificate: unset it to serve GUILDHALL_TLS_CERT.',
    );
  }
  if ((result.s3AccessKeyId === null) !== (result.s3SecretAccessKey === null)) {
    throw new ConfigError(
      "GUILDHALL_S3_ACCESS_KEY_ID and GUILDHALL_S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS SDK's own credentials).",
    );
  }
  return {
    ...result,
    ...voiceSettings(result),
    dataDir: resolve(result.dataDir),
    webDir: resolve(result.webDir),
  };
}

/** The host other machines reach a listener on, for a wildcard listen address. */
function reachableHost(host: string): string {
  return host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
}

/** The IPv4 listen address standing in for an IPv6 API host, for the voice node's default. */
const IPV6_TO_IPV4_HOST: Readonly<Record<string, string>> = { '::1': '127.0.0.1', '::': '0.0.0.0' };

/**
 * The voice settings whose default comes from others. A bad combination is refused only for a
 * role that runs a voice node; other roles only hand the endpoint out (op 4) or ignore them.
 */
function voiceSettings(raw: RawConfig): Pick<Config, DerivedSetting> {
  const voiceNode = roleServes(raw.role, 'voice');
  const refuse = (message: string) => {
    if (voiceNode) throw new ConfigError(message);
  };
  if ((raw.voiceTlsCert === null) !== (raw.voiceTlsKey === null)) {
    refuse('GUILDHALL_VOICE_TLS_CERT and GUILDHALL_VOICE_TLS_KEY must be set together.');
  }
  let voicePort = raw.voicePort ?? (raw.port === 0 ? 0 : raw.port + 1);
  if (voicePort > 65535) {
    refuse(
      `GUILDHALL_VOICE_PORT must be set when GUILDHALL_PORT is 65535 (the default is the next port).`,
    );
    voicePort = 0;
  }
  if (raw.role === 'all' && voicePort !== 0 && voicePort === raw.port) {
    refuse(
      `GUILDHALL_VOICE_PORT must differ from GUILDHALL_PORT; got ${String(voicePort)} for both.`,
    );
  }
  // The media relay is IPv4 (as the platform's Ready `ip`): an IPv6 API host maps to IPv4's own.
  const voiceHost = raw.voiceHost ?? IPV6_TO_IPV4_HOST[raw.host] ?? raw.host;
  const host = reachableHost(voiceHost);
  const voiceEndpoint =
    raw.voiceEndpoint ?? `${host.includes(':') ? `[${host}]` : host}:${String(voicePort)}`;
  const endpointHost = parseHostPort(voiceEndpoint)?.host ?? host;
  const publicIp = endpointHost === 'localhost' ? '127.0.0.1' : endpointHost;
  let voicePublicIp = raw.voicePublicIp ?? publicIp;
  if (!IPV4.test(voicePublicIp)) {
    refuse(
      `GUILDHALL_VOICE_PUBLIC_IP must be set: the voice endpoint host "${endpointHost}" is not an IPv4 address.`,
    );
    voicePublicIp = '127.0.0.1';
  }
  return { voicePort, voiceHost, voiceEndpoint, voicePublicIp };
}

/** The most one request may upload in all (GUILDHALL_MAX_UPLOAD_BYTES, else 10 files' worth). */
export function uploadLimitBytes(config: Pick<Config, 'maxUploadBytes' | 'maxAttachmentBytes'>) {
  return config.maxUploadBytes ?? 10 * config.maxAttachmentBytes;
}

/** The URL clients reach the HTTP API at (no trailing slash, no /api). */
/** Whether the API and gateway listener serves TLS (HTTPS and WSS). */
export function servesTls(config: Pick<Config, 'tls' | 'tlsCert'>): boolean {
  return config.tls === 'dev' || config.tlsCert !== null;
}

export function publicBaseUrl(
  config: Pick<Config, 'publicUrl' | 'host' | 'tls' | 'tlsCert'>,
  port: number,
): string {
  if (config.publicUrl !== null) return config.publicUrl;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  const scheme = servesTls(config) ? 'https' : 'http';
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${port}`;
}
