/**
 * The blob contract (blobStoreContract.ts) on both stores: the folder, and S3 against
 * an S3-compatible server this file starts (test/support/s3Server.ts), never skipped.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startS3Server } from '../../test/support/s3Server.js';
import { describeBlobStoreContract } from './blobStoreContract.js';
import { DiskBlobStore } from './index.js';
import { S3BlobStore } from './s3.js';

describeBlobStoreContract('folder', async () => {
  const root = await mkdtemp(join(tmpdir(), 'guildhall-blobs-'));
  return {
    store: new DiskBlobStore(join(root, 'one')),
    neighbour: new DiskBlobStore(join(root, 'two')),
    dispose: () => rm(root, { recursive: true, force: true }),
  };
});

describeBlobStoreContract('S3', async () => {
  const server = await startS3Server();
  const store = new S3BlobStore(server.settings(), { pageSize: 100 });
  const neighbour = new S3BlobStore(server.settings());
  return {
    store,
    neighbour,
    dispose: async () => {
      store.close();
      neighbour.close();
      await server.close();
    },
  };
});
