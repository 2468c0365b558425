/**
 * @module blobs: where uploaded files live, behind one interface: a disk folder by default, or
 * an S3-compatible bucket (`s3.ts`, loaded only when GUILDHALL_BLOB_URL names one).
 */
import { mkdir, open, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

export interface Blob {
  bytes: Buffer;
  contentType: string;
}

/** A stored blob opened for streaming out (a CDN route sends it without holding it whole). */
export interface BlobStream {
  stream: Readable;
  contentType: string;
  /** Its length in bytes. */
  size: number;
}

/** A file streamed in but not yet under a key: committed once its row is written, else discarded. */
export interface StagedBlob {
  /** Its length in bytes. */
  readonly size: number;
  /** Moves it under `key` (a rename: the bytes are not copied). */
  commit(key: string, contentType: string): Promise<void>;
  /** Removes it, unless committed (so a `finally` may always call it). */
  discard(): Promise<void>;
}

/** A stored blob, as the orphan sweep sees it. */
export interface BlobEntry {
  key: string;
  /** When it was last written (epoch ms). */
  modifiedAt: number;
}

export interface BlobStore {
  put(key: string, blob: Blob): Promise<void>;
  /** The blob, or null when there is none under that key. */
  get(key: string): Promise<Blob | null>;
  /** The blob as a stream, or null when there is none under that key. */
  read(key: string): Promise<BlobStream | null>;
  /** Removes the blob under `key`; nothing happens when there is none. */
  delete(key: string): Promise<void>;
  /**
   * Streams `source` into a temporary file (or object), never holding it whole in memory. When
   * the stream fails (a size limit, a closed connection) the file is removed and the error
   * rethrown.
   */
  stage(source: Readable): Promise<StagedBlob>;
  /** Every stored blob (not staged or half-written files). */
  list(): AsyncIterable<BlobEntry>;
  /** Removes staged and half-written files last written before `beforeMs`; returns how many. */
  removeTemporary(beforeMs: number): Promise<number>;
  /** Lets go of connections (a store the app opened is closed with it). */
  close?(): void;
}

/** The form of every key: a lower-case kind, then path segments (`attachments/123`). */
export const BLOB_KEY = /^[a-z0-9_-]+(?:\/[A-Za-z0-9_.-]+)+$/;

/** Whether `key` names a blob (not a path that climbs out of the store). */
export function isBlobKey(key: string): boolean {
  return BLOB_KEY.test(key) && !key.includes('..');
}
/** Staged uploads wait here, beside the blobs, so a commit is a rename on one file system. */
const STAGING = '.staging';
const TEMPORARY = /\.[0-9a-f]{12}\.tmp(?:\.type)?$/;

const ignoreMissing = (err: unknown) => {
  if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
};

/**
 * Files in a folder, one per key, with the content type in a sidecar. Writes go to a temporary
 * file first and are renamed into place, so a reader never sees half a file.
 */
export class DiskBlobStore implements BlobStore {
  readonly #root: string;

  constructor(root: string) {
    this.#root = resolve(root);
  }

  #path(key: string): string {
    if (!isBlobKey(key)) throw new TypeError(`invalid blob key: ${key}`);
    const path = resolve(join(this.#root, key));
    if (!path.startsWith(this.#root + sep)) throw new TypeError(`invalid blob key: ${key}`);
    return path;
  }

  async put(key: string, blob: Blob): Promise<void> {
    const path = this.#path(key);
    await mkdir(dirname(path), { recursive: true });
    const temp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    await writeFile(`${temp}.type`, blob.contentType);
    await rename(`${temp}.type`, `${path}.type`);
    await writeFile(temp, blob.bytes);
    await rename(temp, path);
  }

  async get(key: string): Promise<Blob | null> {
    const path = this.#path(key);
    try {
      const [bytes, contentType] = await Promise.all([
        readFile(path),
        readFile(`${path}.type`, 'utf8'),
      ]);
      return { bytes, contentType };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async read(key: string): Promise<BlobStream | null> {
    const path = this.#path(key);
    try {
      // Opened first, so a blob deleted meanwhile still streams whole (or is not found at all).
      const file = await open(path);
      try {
        const contentType = await readFile(`${path}.type`, 'utf8');
        const { size } = await file.stat();
        return { stream: file.createReadStream(), contentType, size };
      } catch (err) {
        await file.close();
        throw err;
      }
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    const path = this.#path(key);
    await rm(path).catch(ignoreMissing);
    await rm(`${path}.type`).catch(ignoreMissing);
  }

  async stage(source: Readable): Promise<StagedBlob> {
    const folder = join(this.#root, STAGING);
    await mkdir(folder, { recursive: true });
    const temp = join(folder, `${randomBytes(6).toString('hex')}.tmp`);
    let size = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        size += chunk.length;
        done(null, chunk);
      },
    });
    // Opened before the pipeline, so the file exists before a byte flows and the `rm` after a
    // failure removes it, whatever order the stream closes in (a stream that opened the file
    // itself left staged files behind failed uploads under load).
    const file = await open(temp, 'wx', 0o600);
    try {
      await pipeline(source, count, file.createWriteStream());
    } catch (err) {
      await rm(temp, { force: true });
      throw err;
    }
    let settled = false;
    return {
      size,
      commit: async (key, contentType) => {
        const path = this.#path(key);
        await mkdir(dirname(path), { recursive: true });
        await writeFile(`${path}.type`, contentType);
        await rename(temp, path);
        settled = true;
      },
      discard: async () => {
        if (settled) return;
        settled = true;
        await rm(temp, { force: true });
      },
    };
  }

  async *list(): AsyncIterable<BlobEntry> {
    const entries = await readdir(this.#root, { recursive: true, withFileTypes: true }).catch(
      (err: unknown) => {
        ignoreMissing(err);
        return [];
      },
    );
    for (const entry of entries) {
      if (!entry.isFile() || entry.name.endsWith('.type') || TEMPORARY.test(entry.name)) continue;
      const key = relative(this.#root, join(entry.parentPath, entry.name)).split(sep).join('/');
      if (key.startsWith(`${STAGING}/`) || !isBlobKey(key)) continue;
      const info = await stat(join(entry.parentPath, entry.name)).catch(() => null);
      if (info !== null) yield { key, modifiedAt: info.mtimeMs };
    }
  }

  async removeTemporary(beforeMs: number): Promise<number> {
    const entries = await readdir(this.#root, { recursive: true, withFileTypes: true }).catch(
      (err: unknown) => {
        ignoreMissing(err);
        return [];
      },
    );
    let removed = 0;
    for (const entry of entries) {
      const path = join(entry.parentPath, entry.name);
      const staged = relative(this.#root, path).startsWith(`${STAGING}${sep}`);
      if (!entry.isFile() || !(staged || TEMPORARY.test(entry.name))) continue;
      const info = await stat(path).catch(() => null);
      if (info === null || info.mtimeMs >= beforeMs) continue;
      await rm(path, { force: true });
      removed += 1;
    }
    return removed;
  }
}
