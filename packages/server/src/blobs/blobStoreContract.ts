import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Repositories } from '../storage/index.js';
import type { BlobStore } from './index.js';
import { sweepOrphanBlobs } from './lifecycle.js';

/**
 * A store, and another on the same service (another folder, another key prefix). A store that
 * lists page by page lists 100 keys a page, so that {@link MANY} keys take two.
 */
export interface BlobStoreFixture {
  store: BlobStore;
  neighbour: BlobStore;
  dispose(): Promise<void>;
}

const HOUR_MS = 3_600_000;
/** Larger than two parts of a multipart upload (5 MiB each), so a streamed file spans three. */
const LARGE_BYTES = 11 * 1024 * 1024 + 7;
/** Past one page of a listing: the fixture's store lists at most 100 keys a request. */
const MANY = 105;

const text = (value: string) => ({ bytes: Buffer.from(value), contentType: 'text/plain' });

/** A readable that yields `size` bytes of a pattern in 64 KiB chunks, then fails with `error`. */
function pattern(size: number, error?: Error): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent >= size) {
        if (error === undefined) this.push(null);
        else this.destroy(error);
        return;
      }
      const chunk = Buffer.alloc(Math.min(65_536, size - sent), sent % 251);
      sent += chunk.length;
      this.push(chunk);
    },
  });
}

async function drain(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function keys(store: BlobStore): Promise<string[]> {
  const found: string[] = [];
  for await (const entry of store.list()) found.push(entry.key);
  return found.sort();
}

/**
 * The one suite every blob store passes (the folder and S3): what the routes, the lifecycle
 * (blobs/lifecycle.ts) and the orphan sweep rely on. One store per file, keys of each test's own.
 */
export function describeBlobStoreContract(
  name: string,
  make: () => Promise<BlobStoreFixture>,
): void {
  describe(`BlobStore contract: ${name}`, () => {
    let fixture: BlobStoreFixture;
    let store: BlobStore;
    beforeAll(async () => {
      fixture = await make();
      store = fixture.store;
    });
    afterAll(async () => {
      await fixture.dispose();
    });

    it('puts, gets, reads as a stream, replaces and deletes', async () => {
      expect(await store.get('attachments/1')).toBeNull();
      expect(await store.read('attachments/1')).toBeNull();
      await store.put('attachments/1', text('alpha'));
      expect(await store.get('attachments/1')).toEqual(text('alpha'));
      const read = await store.read('attachments/1');
      expect(read?.contentType).toBe('text/plain');
      expect(read?.size).toBe(5);
      expect((await drain(read?.stream ?? Readable.from([]))).toString()).toBe('alpha');

      await store.put('attachments/1', { bytes: Buffer.from('beta!'), contentType: 'image/png' });
      expect(await store.get('attachments/1')).toEqual({
        bytes: Buffer.from('beta!'),
        contentType: 'image/png',
      });
      await store.delete('attachments/1');
      expect(await store.get('attachments/1')).toBeNull();
      await store.delete('attachments/1'); // nothing there: no error
    });

    it('refuses keys outside its layout', async () => {
      for (const key of ['../escape', 'attachments/../../x', 'Upper/x', 'nokind', 'a/b c']) {
        await expect(store.put(key, text('x'))).rejects.toThrow(TypeError);
        await expect(store.get(key)).rejects.toThrow(TypeError);
        await expect(store.delete(key)).rejects.toThrow(TypeError);
      }
    });

    it('streams a large upload in, unseen until committed under its key', async () => {
      const staged = await store.stage(pattern(LARGE_BYTES));
      expect(staged.size).toBe(LARGE_BYTES);
      expect(await keys(store)).not.toContain('attachments/2');
      expect((await keys(store)).some((key) => !/^(attachments|emojis)\//.test(key))).toBe(false);
      await staged.commit('attachments/2', 'application/zip');
      await staged.discard(); // after a commit: nothing happens
      const read = await store.read('attachments/2');
      expect(read?.size).toBe(LARGE_BYTES);
      expect(read?.contentType).toBe('application/zip');
      const bytes = await drain(read?.stream ?? Readable.from([]));
      expect(bytes.equals(await drain(pattern(LARGE_BYTES)))).toBe(true);
      // Nothing temporary is left behind a commit.
      expect(await store.removeTemporary(Date.now() + HOUR_MS)).toBe(0);
      await store.delete('attachments/2');
    });

    it('stages an empty file', async () => {
      const staged = await store.stage(Readable.from([]));
      expect(staged.size).toBe(0);
      await staged.commit('attachments/3', 'text/plain');
      expect(await store.get('attachments/3')).toEqual({
        bytes: Buffer.alloc(0),
        contentType: 'text/plain',
      });
      await store.delete('attachments/3');
    });

    it('rethrows the source error of a failed upload and keeps nothing of it', async () => {
      const limit = new Error('over the limit');
      await expect(store.stage(pattern(6 * 1024 * 1024, limit))).rejects.toBe(limit);
      await expect(store.stage(pattern(10, limit))).rejects.toBe(limit);
      expect(await keys(store)).toEqual([]);
      expect(await store.removeTemporary(Date.now() + HOUR_MS)).toBe(0);
    });

    it('discards a staged file, and removes one abandoned past the grace', async () => {
      const dropped = await store.stage(Readable.from([Buffer.from('dropped')]));
      await dropped.discard();
      expect(await store.removeTemporary(Date.now() + HOUR_MS)).toBe(0);

      const abandoned = await store.stage(Readable.from([Buffer.from('abandoned')]));
      expect(await store.removeTemporary(Date.now() - HOUR_MS)).toBe(0);
      expect(await store.removeTemporary(Date.now() + HOUR_MS)).toBe(1);
      expect(await store.removeTemporary(Date.now() + HOUR_MS)).toBe(0);
      await abandoned.discard(); // already gone: no error
      expect(await keys(store)).toEqual([]);
    });

    it('lists every blob past a page, with when it was written, and not its neighbour', async () => {
      const before = Date.now() - HOUR_MS;
      await fixture.neighbour.put('emojis/9', text('theirs'));
      const written = Array.from({ length: MANY }, (_, i) => `emojis/${String(1000 + i)}`);
      for (let i = 0; i < written.length; i += 25) {
        await Promise.all(written.slice(i, i + 25).map((key) => store.put(key, text(key))));
      }
      const entries = [];
      for await (const entry of store.list()) entries.push(entry);
      expect(entries.map((e) => e.key).sort()).toEqual(written);
      expect(
        entries.every((e) => e.modifiedAt > before && e.modifiedAt < before + 2 * HOUR_MS),
      ).toBe(true);
      expect(await keys(fixture.neighbour)).toEqual(['emojis/9']);
      for (let i = 0; i < written.length; i += 25) {
        await Promise.all(written.slice(i, i + 25).map((key) => store.delete(key)));
      }
      expect(await keys(store)).toEqual([]);
    });

    it('is swept of orphans past the grace period, keeping what rows hold', async () => {
      for (const key of ['attachments/10', 'attachments/11', 'avatars/1/a.png']) {
        await store.put(key, text(key));
      }
      const staged = await store.stage(Readable.from([Buffer.from('half')]));
      const held = new Set(['attachments/10']);
      const storage = {
        blobRefs: {
          referenced: (wanted: readonly string[]) =>
            Promise.resolve(new Set(wanted.filter((key) => held.has(key)))),
        },
      } as unknown as Repositories;
      // Young: nothing goes.
      const young = await sweepOrphanBlobs({
        storage,
        blobs: store,
        nowMs: Date.now(),
        graceMs: HOUR_MS,
      });
      expect(young).toEqual({ removed: 0, temporary: 0 });
      const old = await sweepOrphanBlobs({
        storage,
        blobs: store,
        nowMs: Date.now() + 2 * HOUR_MS,
        graceMs: HOUR_MS,
      });
      expect(old).toEqual({ removed: 2, temporary: 1 });
      expect(await keys(store)).toEqual(['attachments/10']);
      expect(await keys(fixture.neighbour)).toEqual(['emojis/9']);
      await staged.discard();
      await store.delete('attachments/10');
    });
  });
}
