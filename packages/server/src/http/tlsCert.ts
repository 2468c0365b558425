/**
 * @module http/tlsCert: a listener's TLS certificate, the operator's (PEM files named by flags) or
 * else a development certificate made at first start in a folder of the data folder, for the
 * loopback names and the advertised host, and made again when it no longer covers them or is a
 * week from its end. Node clients trust it with `NODE_EXTRA_CA_CERTS=<that cert.pem>`. The API
 * listener (`--tls-cert`, `--tls dev`: `<dataDir>/tls/`) and the voice node (`--voice-tls-cert`,
 * else `<dataDir>/voice-tls/`: docs/voice.md#tls) each have one.
 */
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { ConfigError } from '../config.js';

const CERT_FILE = 'cert.pem';
const KEY_FILE = 'key.pem';
/** A development certificate lives this long, and is made again a week before it ends. */
const DEV_CERT_DAYS = 365;
const RENEW_BEFORE_MS = 7 * 86_400_000;

export interface TlsMaterial {
  cert: string;
  key: string;
  /** The certificate's file: what `NODE_EXTRA_CA_CERTS` names for a development certificate. */
  certPath: string;
  /** Made by this start (a development certificate that was missing or stale). */
  made: boolean;
  /** A development certificate (not the operator's). */
  development: boolean;
}

/** The names a development certificate covers: loopback, plus the advertised host. */
function devNames(host: string): string[] {
  return [...new Set(['localhost', '127.0.0.1', '::1', host.replace(/^\[|\]$/g, '')])];
}

function covers(cert: X509Certificate, names: readonly string[], nowMs: number): boolean {
  if (Date.parse(cert.validTo) - RENEW_BEFORE_MS < nowMs) return false;
  return names.every((name) =>
    isIP(name) === 0 ? cert.checkHost(name) !== undefined : cert.checkIP(name) !== undefined,
  );
}

/** Which listener a certificate is for: its flags, its folder, the name in a development one. */
export interface TlsListener {
  /** `--voice-tls-cert`, say: named in the errors. */
  certFlag: string;
  keyFlag: string;
  /** What the errors call it: `voice TLS`. */
  label: string;
  /** The development certificate's folder in the data folder. */
  devDir: string;
  /** A development certificate's common name. */
  commonName: string;
}

/**
 * The certificate and key a listener serves.
 *
 * @throws ConfigError when the operator's files cannot be read.
 */
export async function loadTls(
  listener: TlsListener,
  options: {
    certPath: string | null;
    keyPath: string | null;
    dataDir: string;
    /** The advertised host (no port). */
    host: string;
    nowMs: number;
  },
): Promise<TlsMaterial> {
  const { certPath, keyPath } = options;
  if (certPath !== null || keyPath !== null) {
    if (certPath === null || keyPath === null) {
      throw new ConfigError(`Give both ${listener.certFlag} and ${listener.keyFlag}, or neither.`);
    }
    try {
      return {
        cert: readFileSync(certPath, 'utf8'),
        key: readFileSync(keyPath, 'utf8'),
        certPath,
        made: false,
        development: false,
      };
    } catch (err) {
      throw new ConfigError(
        `The ${listener.label} certificate or key cannot be read (${(err as Error).message}). Check ${listener.certFlag} and ${listener.keyFlag}.`,
      );
    }
  }
  const dir = join(options.dataDir, listener.devDir);
  const devCert = join(dir, CERT_FILE);
  const devKey = join(dir, KEY_FILE);
  const names = devNames(options.host);
  if (existsSync(devCert) && existsSync(devKey)) {
    const cert = readFileSync(devCert, 'utf8');
    try {
      if (covers(new X509Certificate(cert), names, options.nowMs)) {
        return {
          cert,
          key: readFileSync(devKey, 'utf8'),
          certPath: devCert,
          made: false,
          development: true,
        };
      }
    } catch {
      // An unreadable certificate is made again below.
    }
  }
  // selfsigned (and its ASN.1 libraries) is loaded only to make a certificate.
  // A CommonJS module: its exports are the import's default (so also in the CLI's bundle).
  const { generate } = (await import('selfsigned')).default;
  const made = await generate([{ name: 'commonName', value: listener.commonName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(options.nowMs - 60_000),
    notAfterDate: new Date(options.nowMs + DEV_CERT_DAYS * 86_400_000),
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: names.map((name) =>
          isIP(name) === 0 ? { type: 2 as const, value: name } : { type: 7 as const, ip: name },
        ),
      },
    ],
  });
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Written beside and renamed: a crash never leaves half a key.
  writeFileSync(`${devKey}.tmp`, made.private, { mode: 0o600 });
  chmodSync(`${devKey}.tmp`, 0o600);
  renameSync(`${devKey}.tmp`, devKey);
  writeFileSync(`${devCert}.tmp`, made.cert);
  renameSync(`${devCert}.tmp`, devCert);
  return { cert: made.cert, key: made.private, certPath: devCert, made: true, development: true };
}
