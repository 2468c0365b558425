/**
 * An S3-compatible server of the test's own (s3ServerMain.ts in a child process), and the
 * settings that point a Guildhall at it. Every test that uses object storage starts one: none
 * is skipped for want of it, under CI=true or not.
 *
 * @module
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Config } from '../../src/config.js';
import type { S3BlobSettings } from '../../src/blobs/s3.js';
import { spawnSupportScript } from './children.js';

/** The bucket s3ServerMain.ts makes. */
export const TEST_BUCKET = 'guildhall';
/** s3rver's one account. */
const CREDENTIALS = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const START_TIMEOUT_MS = 30_000;

export interface TestS3Server {
  readonly endpoint: string;
  /** The folder s3rver keeps objects in. */
  readonly directory: string;
  /** A store's settings on a prefix of its own (`unique-…/`). */
  settings(prefix?: string): S3BlobSettings;
  /** The same as `guildhall start` environment variables. */
  env(prefix?: string): Record<string, string>;
  /** The same as config fields. */
  config(
    prefix?: string,
  ): Pick<
    Config,
    'blobBucket' | 's3Endpoint' | 's3Region' | 's3AccessKeyId' | 's3SecretAccessKey' | 's3PathStyle'
  >;
  close(): Promise<void>;
}

/** A fresh key prefix, so stores in one bucket never see each other's blobs. */
export function uniqueBlobPrefix(name = 't'): string {
  return `${name}-${randomBytes(6).toString('hex')}/`;
}

export async function startS3Server(): Promise<TestS3Server> {
  const directory = await mkdtemp(join(tmpdir(), 'guildhall-s3-'));
  const child = spawnSupportScript('s3ServerMain', [directory], ['--openssl-legacy-provider']);
  let output = '';
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`the test S3 server is silent:\n${output}`));
    }, START_TIMEOUT_MS);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      output += chunk;
      const match = /s3 listening on (\d+)/.exec(output);
      if (match === null) return;
      clearTimeout(timer);
      resolve(Number(match[1]));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`the test S3 server exited (${String(code ?? signal)}):\n${output}`));
    });
  });
  const endpoint = `http://127.0.0.1:${String(port)}`;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  return {
    endpoint,
    directory,
    settings: (prefix = uniqueBlobPrefix()) => ({
      bucket: TEST_BUCKET,
      prefix,
      endpoint,
      region: 'us-east-1',
      credentials: CREDENTIALS,
      pathStyle: true,
    }),
    env: (prefix = uniqueBlobPrefix()) => ({
      GUILDHALL_BLOB_URL: `s3://${TEST_BUCKET}/${prefix}`,
      GUILDHALL_S3_ENDPOINT: endpoint,
      GUILDHALL_S3_ACCESS_KEY_ID: CREDENTIALS.accessKeyId,
      GUILDHALL_S3_SECRET_ACCESS_KEY: CREDENTIALS.secretAccessKey,
      GUILDHALL_S3_PATH_STYLE: 'on',
    }),
    config: (prefix = uniqueBlobPrefix()) => ({
      blobBucket: { bucket: TEST_BUCKET, prefix },
      s3Endpoint: endpoint,
      s3Region: 'us-east-1',
      s3AccessKeyId: CREDENTIALS.accessKeyId,
      s3SecretAccessKey: CREDENTIALS.secretAccessKey,
      s3PathStyle: true,
    }),
    async close() {
      child.kill('SIGTERM');
      await exited;
      await rm(directory, { recursive: true, force: true });
    },
  };
}
