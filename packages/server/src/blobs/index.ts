/** @module blobs: where uploaded files live (a disk folder by default), behind one interface. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { randomBytes } from 'node:crypto';

export interface Blob {
  bytes: Buffer;
  contentType: string;
}

export interface BlobStore {
  put(key: string, blob: Blob): Promise<void>;
  /** The blob, or null when there is none under that key. */
  get(key: string): Promise<Blob | null>;
}

const KEY = /^[a-z0-9_-]+(?:\/[A-Za-z0-9_.-]+)+$/;

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
    if (!KEY.test(key) || key.includes('..')) throw new TypeError(`invalid blob key: ${key}`);
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
}
