/**
 * @module voice/tlsCert: the voice gateway's TLS certificate. Voice clients (@discordjs/voice)
 * always dial `wss://<endpoint>`, so the voice port speaks TLS as well as plain WebSocket. The
 * certificate is the operator's (`--voice-tls-cert`, `--voice-tls-key`), or else a development
 * certificate made at first start in `<dataDir>/voice-tls/`, for the loopback names and the
 * advertised host; Node clients trust it with `NODE_EXTRA_CA_CERTS=<that cert.pem>`
 * (docs/voice.md#tls).
 */
import { X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { ConfigError } from '../config.js';

export const DEV_CERT_DIR = 'voice-tls';
const CERT_FILE = 'cert.pem';
const KEY_FILE = 'key.pem';
/** A development certificate lives this long, and is made again a week before it ends. */
const DEV_CERT_DAYS = 365;
const RENEW_BEFORE_MS = 7 * 86_400_000;

export interface VoiceTlsMaterial {
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

/**
 * The certificate and key the voice port serves.
 *
 * @throws ConfigError when the operator's files cannot be read.
 */
export async function loadVoiceTls(options: {
  certPath: string | null;
  keyPath: string | null;
  dataDir: string;
  /** The advertised endpoint's host (no port). */
  host: string;
  nowMs: number;
}): Promise<VoiceTlsMaterial> {
  const { certPath, keyPath } = options;
  if (certPath !== null || keyPath !== null) {
    if (certPath === null || keyPath === null) {
      throw new ConfigError('Give both --voice-tls-cert and --voice-tls-key, or neither.');
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
        `The voice TLS certificate or key cannot be read (${(err as Error).message}). Check --voice-tls-cert and --voice-tls-key.`,
      );
    }
  }
  const dir = join(options.dataDir, DEV_CERT_DIR);
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
  const { generate } = await import('selfsigned');
  const made = await generate([{ name: 'commonName', value: 'Guildhall voice (development)' }], {
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
