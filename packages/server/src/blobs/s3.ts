/**
 * @module blobs/s3: blobs as objects in an S3-compatible bucket (AWS S3, MinIO, Ceph, R2, …),
 * for deployments whose nodes share no folder. Imported only when GUILDHALL_BLOB_URL names a
 * bucket (appDrivers.ts loads it with `import()`), so the AWS SDK costs nothing otherwise.
 */
import { randomBytes } from 'node:crypto';
import { PassThrough, Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  isBlobKey,
  type Blob,
  type BlobEntry,
  type BlobStore,
  type BlobStream,
  type StagedBlob,
} from './index.js';

/** Where the bucket is and how to reach it (the GUILDHALL_BLOB_URL and GUILDHALL_S3_* settings). */
export interface S3BlobSettings {
  bucket: string;
  /** Put before every key: '' or ending with '/'. The prefix must be this deployment's own. */
  prefix: string;
  /** The service's URL (MinIO's, say); null: AWS's for the region. */
  endpoint: string | null;
  region: string;
  /** Null: the SDK's own chain (AWS_ACCESS_KEY_ID, a profile, an instance role, …). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null;
  /** Path-style URLs (`endpoint/bucket/key`), which most self-hosted services need. */
  pathStyle: boolean;
}

/** Staged uploads wait under this key prefix until their row is written. */
const STAGING = '.staging/';
/**
 * A streamed upload is sent in parts this large (S3's smallest but the last), at most
 * {@link UPLOAD_QUEUE} at once: what one upload holds in memory.
 */
const PART_BYTES = 5 * 1024 * 1024;
const UPLOAD_QUEUE = 2;

const isMissing = (err: unknown) =>
  err instanceof S3ServiceException &&
  (err.name === 'NoSuchKey' || err.$metadata.httpStatusCode === 404);

export class S3BlobStore implements BlobStore {
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  /** Keys a listing asks for at once (S3 gives 1000 at most; tests ask for fewer). */
  readonly #pageSize: number;

  constructor(settings: S3BlobSettings, options: { pageSize?: number } = {}) {
    this.#pageSize = options.pageSize ?? 1000;
    this.#client = new S3Client({
      region: settings.region,
      forcePathStyle: settings.pathStyle,
      ...(settings.endpoint === null ? {} : { endpoint: settings.endpoint }),
      ...(settings.credentials === null ? {} : { credentials: settings.credentials }),
    });
    this.#bucket = settings.bucket;
    this.#prefix = settings.prefix;
  }

  #object(key: string): string {
    if (!isBlobKey(key)) throw new TypeError(`invalid blob key: ${key}`);
    return this.#prefix + key;
  }

  async put(key: string, blob: Blob): Promise<void> {
    await this.#client.send(
      new PutObjectCommand({
        Bucket: this.#bucket,
        Key: this.#object(key),
        Body: blob.bytes,
        ContentType: blob.contentType,
      }),
    );
  }

  async get(key: string): Promise<Blob | null> {
    const found = await this.read(key);
    if (found === null) return null;
    const chunks: Buffer[] = [];
    for await (const chunk of found.stream) chunks.push(chunk as Buffer);
    return { bytes: Buffer.concat(chunks), contentType: found.contentType };
  }

  async read(key: string): Promise<BlobStream | null> {
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({ Bucket: this.#bucket, Key: this.#object(key) }),
      );
      return {
        stream: answer.Body as Readable,
        contentType: answer.ContentType ?? 'application/octet-stream',
        size: answer.ContentLength ?? 0,
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.#deleteObject(this.#object(key));
  }

  async #deleteObject(objectKey: string): Promise<void> {
    await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: objectKey }));
  }

  /** Streams `source` to an object under the staging prefix, in parts (a multipart upload). */
  async stage(source: Readable): Promise<StagedBlob> {
    const staged = `${this.#prefix}${STAGING}${randomBytes(6).toString('hex')}.tmp`;
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    const body = new PassThrough();
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: staged, Body: body },
      partSize: PART_BYTES,
      queueSize: UPLOAD_QUEUE,
      // Aborted below, so the source's error (a size limit, say) is the one rethrown.
      leavePartsOnError: true,
    });
    // A failed upload stops the reading too (else the source would wait on a full buffer).
    const sending = upload.done().catch((err: unknown) => {
      body.destroy(err as Error);
      throw err;
    });
    const [read, sent] = await Promise.allSettled([pipeline(source, count, body), sending]);
    if (read.status === 'rejected' || sent.status === 'rejected') {
      await this.#abandon(staged, upload.uploadId);
      throw read.status === 'rejected' ? read.reason : (sent as PromiseRejectedResult).reason;
    }
    let settled = false;
    return {
      size,
      commit: async (key, contentType) => {
        // An object cannot be renamed: it is copied under its key (within the service) and the
        // staged one removed. A crash between the two leaves it to removeTemporary.
        await this.#client.send(
          new CopyObjectCommand({
            Bucket: this.#bucket,
            Key: this.#object(key),
            CopySource: `${this.#bucket}/${encodeURIComponent(staged).replace(/%2F/g, '/')}`,
            ContentType: contentType,
            MetadataDirective: 'REPLACE',
          }),
        );
        settled = true;
        await this.#deleteObject(staged).catch(() => undefined);
      },
      discard: async () => {
        if (settled) return;
        settled = true;
        await this.#deleteObject(staged);
      },
    };
  }

  /**
   * Removes what a failed upload left: its parts, and the object if it was completed. Best
   * effort: a service that keeps the parts is told to expire them by a lifecycle rule
   * (docs/operations.md), and an object left is removed by removeTemporary.
   */
  async #abandon(staged: string, uploadId: string | undefined): Promise<void> {
    if (uploadId !== undefined) {
      await this.#client
        .send(
          new AbortMultipartUploadCommand({
            Bucket: this.#bucket,
            Key: staged,
            UploadId: uploadId,
          }),
        )
        .catch(() => undefined);
    }
    await this.#deleteObject(staged).catch(() => undefined);
  }

  /** Every object under the prefix, page by page (ListObjectsV2 gives 1000 at most a page). */
  async *#objects(prefix: string): AsyncIterable<{ key: string; modifiedAt: number }> {
    let token: string | undefined;
    do {
      const page = await this.#client.send(
        new ListObjectsV2Command({
          Bucket: this.#bucket,
          Prefix: prefix,
          MaxKeys: this.#pageSize,
          ...(token === undefined ? {} : { ContinuationToken: token }),
        }),
      );
      for (const object of page.Contents ?? []) {
        if (object.Key === undefined) continue;
        yield { key: object.Key, modifiedAt: object.LastModified?.getTime() ?? 0 };
      }
      token = page.IsTruncated === true ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  async *list(): AsyncIterable<BlobEntry> {
    for await (const object of this.#objects(this.#prefix)) {
      const key = object.key.slice(this.#prefix.length);
      if (key.startsWith(STAGING) || !isBlobKey(key)) continue;
      yield { key, modifiedAt: object.modifiedAt };
    }
  }

  async removeTemporary(beforeMs: number): Promise<number> {
    let removed = 0;
    for await (const object of this.#objects(`${this.#prefix}${STAGING}`)) {
      if (object.modifiedAt >= beforeMs) continue;
      await this.#deleteObject(object.key);
      removed += 1;
    }
    return removed;
  }

  close(): void {
    this.#client.destroy();
  }
}
