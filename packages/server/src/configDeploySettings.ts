/**
 * @module configDeploySettings: the settings of a deployment spread over machines: TLS on the
 * API and gateway listener, where blobs live (an S3-compatible bucket), and where traces go.
 * Part of the settings table (configSettings.ts).
 */
import type { BlobBucket, RawConfig, Setting } from './configTypes.js';
import { onOff } from './configParsers.js';

/** S3's bucket names: 3 to 63 lower-case letters, digits, dots and hyphens. */
const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A key prefix: path segments of the characters keys are safe with. */
const PREFIX = /^(?:[\w.-]+\/)*$/;

/** `s3://bucket/prefix` as a bucket and a prefix ending with '/' (or ''). */
export function parseBlobUrl(raw: string): BlobBucket | undefined {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(raw);
  const bucket = match?.[1] ?? '';
  const path = (match?.[2] ?? '').replace(/\/*$/, '');
  const prefix = path === '' ? '' : `${path}/`;
  if (!BUCKET.test(bucket) || bucket.includes('..') || !PREFIX.test(prefix)) return undefined;
  if (prefix.split('/').some((segment) => segment === '.' || segment === '..')) return undefined;
  return { bucket, prefix };
}

const nonEmpty = (raw: string) => (raw.length > 0 ? raw : undefined);

export const DEPLOY_SETTINGS = {
  tls: {
    env: 'GUILDHALL_TLS',
    flag: '--tls',
    allowed:
      'off or dev (dev: HTTPS and WSS with a development certificate made in <data-dir>/tls/; for your own, --tls-cert and --tls-key)',
    defaultValue: 'off',
    parse: (raw: string) => (raw === 'off' || raw === 'dev' ? raw : undefined),
  },
  tlsCert: {
    env: 'GUILDHALL_TLS_CERT',
    flag: '--tls-cert',
    allowed:
      'the path of a PEM certificate (chain) the API and gateway serve HTTPS and WSS with, with --tls-key',
    defaultValue: null,
    parse: nonEmpty,
  },
  tlsKey: {
    env: 'GUILDHALL_TLS_KEY',
    flag: '--tls-key',
    allowed: 'the path of the PEM private key of --tls-cert',
    defaultValue: null,
    parse: nonEmpty,
  },
  blobBucket: {
    env: 'GUILDHALL_BLOB_URL',
    flag: '--blob-url',
    allowed:
      's3://BUCKET/PREFIX, the same on every node: uploaded files in an S3-compatible bucket (unset: the folder blobs/ in the data folder)',
    defaultValue: null,
    parse: parseBlobUrl,
  },
  s3Endpoint: {
    env: 'GUILDHALL_S3_ENDPOINT',
    flag: '--s3-endpoint',
    allowed: "an http:// or https:// URL of the S3-compatible service (unset: AWS's)",
    defaultValue: null,
    parse: (raw: string) => {
      try {
        const url = new URL(raw);
        return ['http:', 'https:'].includes(url.protocol) ? raw.replace(/\/+$/, '') : undefined;
      } catch {
        return undefined;
      }
    },
  },
  s3Region: {
    env: 'GUILDHALL_S3_REGION',
    flag: '--s3-region',
    allowed:
      'a region name such as eu-west-1 (what the service expects; most others take us-east-1)',
    defaultValue: 'us-east-1',
    parse: (raw: string) => (/^[a-z0-9-]{1,64}$/.test(raw) ? raw : undefined),
  },
  s3AccessKeyId: {
    env: 'GUILDHALL_S3_ACCESS_KEY_ID',
    flag: '--s3-access-key-id',
    allowed:
      "the bucket's access key id, with GUILDHALL_S3_SECRET_ACCESS_KEY (unset: the AWS SDK's chain: AWS_ACCESS_KEY_ID, a profile, an instance role)",
    defaultValue: null,
    parse: nonEmpty,
  },
  s3SecretAccessKey: {
    env: 'GUILDHALL_S3_SECRET_ACCESS_KEY',
    flag: '--s3-secret-access-key',
    allowed: 'the secret of GUILDHALL_S3_ACCESS_KEY_ID',
    defaultValue: null,
    parse: nonEmpty,
  },
  s3PathStyle: {
    env: 'GUILDHALL_S3_PATH_STYLE',
    flag: '--s3-path-style',
    allowed:
      'on or off (on: ENDPOINT/BUCKET/KEY URLs, which MinIO and most self-hosted services need)',
    defaultValue: false,
    parse: onOff,
  },
  otlpEndpoint: {
    // The variable every OpenTelemetry exporter reads.
    env: 'OTEL_EXPORTER_OTLP_ENDPOINT',
    flag: '--otlp-endpoint',
    allowed:
      'an http:// or https:// URL of an OTLP/HTTP collector, such as http://127.0.0.1:4318 (unset: no tracing)',
    defaultValue: null,
    parse: (raw: string) => {
      const parsed = URL.canParse(raw) ? new URL(raw) : null;
      return parsed !== null && (parsed.protocol === 'http:' || parsed.protocol === 'https:')
        ? raw
        : undefined;
    },
  },
} as const satisfies {
  [
    K in keyof RawConfig & ('blobBucket' | `s3${string}` | `tls${string}` | 'otlpEndpoint')
  ]: Setting<RawConfig[K]>;
};
