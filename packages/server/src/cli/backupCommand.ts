/**
 * @module cli/backupCommand: `guildhall backup --to FILE`, a consistent copy of a running SQLite
 * deployment (its database, secret key and folder of files) in one gzipped tar, and `guildhall
 * restore --from FILE`, which unpacks one into an empty data folder (docs/operations.md, Backups).
 */
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, open, readdir, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { backupSqlite, checkSqliteBackup } from '../app.js';
import { DiskBlobStore, isBlobKey } from '../blobs/index.js';
import type { Config } from '../config.js';
import { TAR_END, TarError, readTar, tarHeader, tarPadding } from './tar.js';

export const BACKUP_USAGE = 'guildhall backup --to FILE [options]';
export const BACKUP_SUMMARY =
  'Copy a running SQLite deployment (database, key, files) into one archive.';
export const RESTORE_USAGE = 'guildhall restore --from FILE [options]';
export const RESTORE_SUMMARY = 'Unpack a `guildhall backup` archive into an empty data folder.';

/** A backup or restore that cannot go ahead: one line saying why and what to do. */
export class BackupError extends Error {
  override readonly name = 'BackupError';
}

const MANIFEST = 'guildhall-backup.json';
const DATABASE = 'guildhall.db';
/** The data folder's files a backup carries besides the database (each when present). */
const KEPT_FILES = ['secret.key', 'demo.json'] as const;

interface Manifest {
  format: 'guildhall-backup';
  version: 1;
  createdAt: string;
  /** `folder`: the files are in the archive; `bucket`: in object storage, not here. */
  blobs: 'folder' | 'bucket';
}

export function backupHelp(configHelp: readonly string[]): string {
  return [
    `Usage: ${BACKUP_USAGE}`,
    '',
    BACKUP_SUMMARY,
    '',
    'While the server runs, writes FILE (gzipped tar, mode 0600, never overwriting) holding:',
    '  guildhall.db    the SQLite database as it was at one moment (SQLite online backup)',
    '  secret.key      the key stored secrets are sealed with, when it is a file',
    '  demo.json       the demo credentials, when there are some',
    '  blobs/          the uploaded files of the folder store (not a bucket: back that up',
    '                  with its own tools)',
    'Keep it as safe as the server: it holds every token and the key that opens them.',
    'PostgreSQL is backed up with pg_dump or pg_basebackup (docs/operations.md, Backups).',
    '',
    'Options:',
    '  --to FILE              Where to write the archive (its folder must exist).',
    ...configHelp,
  ].join('\n');
}

export function restoreHelp(configHelp: readonly string[]): string {
  return [
    `Usage: ${RESTORE_USAGE}`,
    '',
    RESTORE_SUMMARY,
    '',
    'The data folder (--data-dir, GUILDHALL_DATA_DIR) must be new or empty, with no server on',
    "it; the archive's database is checked before anything is moved into place. Then start",
    'the server on that folder. A backup whose key was GUILDHALL_SECRET_KEY needs the same',
    'value set again.',
    '',
    'Options:',
    '  --from FILE            The archive `guildhall backup` wrote.',
    ...configHelp,
  ].join('\n');
}

/** A file entry of the archive: header, bytes, padding. */
async function* fileEntry(name: string, size: number, body: AsyncIterable<Buffer>) {
  yield tarHeader({ name, size, mtimeMs: Date.now() });
  let sent = 0;
  for await (const chunk of body) {
    sent += chunk.length;
    yield chunk;
  }
  if (sent !== size) throw new BackupError(`${name} changed size while it was copied`);
  yield tarPadding(size);
}

function bufferEntry(name: string, bytes: Buffer) {
  return fileEntry(name, bytes.length, Readable.from([bytes]));
}

async function* pathEntry(name: string, path: string) {
  const { size } = await stat(path);
  yield* fileEntry(name, size, createReadStream(path));
}

/** Runs `guildhall backup`; what it wrote, as one line. */
export async function runBackup(config: Config, to: string): Promise<string> {
  if (config.databaseUrl !== null) {
    throw new BackupError(
      'DATABASE_URL names PostgreSQL: back it up with pg_dump or pg_basebackup (docs/operations.md, Backups); this command copies a SQLite deployment.',
    );
  }
  const database = join(config.dataDir, DATABASE);
  if (!existsSync(database)) {
    throw new BackupError(
      `no database at ${database}: set --data-dir (GUILDHALL_DATA_DIR) to the deployment's data folder.`,
    );
  }
  const target = resolve(to);
  if (existsSync(target)) throw new BackupError(`${target} exists: name a new file.`);
  if (!existsSync(dirname(target))) {
    throw new BackupError(`the folder ${dirname(target)} does not exist: make it first.`);
  }
  const work = await mkdtemp(join(dirname(target), '.guildhall-backup-'));
  const partial = `${target}.partial`;
  const counts = { files: 0, bytes: 0, pages: 0 };
  try {
    counts.pages = await backupSqlite(database, join(work, DATABASE));
    const manifest: Manifest = {
      format: 'guildhall-backup',
      version: 1,
      createdAt: new Date().toISOString(),
      blobs: config.blobBucket === null ? 'folder' : 'bucket',
    };
    const entries = async function* () {
      yield* bufferEntry(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2)));
      yield* pathEntry(DATABASE, join(work, DATABASE));
      for (const name of KEPT_FILES) {
        const path = join(config.dataDir, name);
        if (existsSync(path)) yield* pathEntry(name, path);
      }
      if (config.blobBucket === null) {
        const store = new DiskBlobStore(join(config.dataDir, 'blobs'));
        for await (const { key } of store.list()) {
          const blob = await store.read(key);
          if (blob === null) continue; // deleted since it was listed
          yield* bufferEntry(`blobs/${key}.type`, Buffer.from(blob.contentType));
          yield* fileEntry(`blobs/${key}`, blob.size, blob.stream);
          counts.files += 1;
          counts.bytes += blob.size;
        }
      }
      yield TAR_END;
    };
    // Opened before the pipeline, as blobs/index.ts stages uploads: the `rm` after a failure
    // finds the partial file whatever the stream does (one left behind refuses the next backup).
    const file = await open(partial, 'wx', 0o600);
    await pipeline(Readable.from(entries()), createGzip(), file.createWriteStream());
    await rename(partial, target);
  } catch (err) {
    await rm(partial, { force: true });
    throw err;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const files =
    config.blobBucket === null
      ? `${String(counts.files)} files (${String(counts.bytes)} bytes)`
      : 'no files (they are in the bucket)';
  return `Backed up ${DATABASE} (${String(counts.pages)} pages) and ${files} to ${target}.`;
}

/** Where an archive's entry goes under the data folder, or null when it is no entry of ours. */
function restoredPath(name: string): string | null {
  if (name === DATABASE) return name;
  if ((KEPT_FILES as readonly string[]).includes(name)) return name;
  const key = name.startsWith('blobs/') ? name.slice('blobs/'.length).replace(/\.type$/, '') : '';
  return isBlobKey(key) ? name : null;
}

async function readManifest(entry: { body: AsyncIterable<Buffer>; name: string } | undefined) {
  if (entry?.name !== MANIFEST) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of entry.body) chunks.push(chunk);
  try {
    const manifest = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Partial<Manifest>;
    return manifest.format === 'guildhall-backup' && manifest.version === 1 ? manifest : null;
  } catch {
    return null;
  }
}

/** Runs `guildhall restore`; what it restored, as one line. */
export async function runRestore(config: Config, from: string): Promise<string> {
  if (config.databaseUrl !== null) {
    throw new BackupError(
      'DATABASE_URL names PostgreSQL: this restores a SQLite data folder (PostgreSQL: pg_restore, docs/operations.md, Backups). Unset it.',
    );
  }
  const source = resolve(from);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist.`);
  const dataDir = config.dataDir;
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
    throw new BackupError(
      `the data folder ${dataDir} is not empty: restore into a new or empty folder (--data-dir), with no server running on it.`,
    );
  }
  const made = !existsSync(dataDir);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  const work = await mkdtemp(join(dataDir, '.restoring-'));
  let files = 0;
  try {
    const entries = readTar(createReadStream(source).pipe(createGunzip()))[Symbol.asyncIterator]();
    const first = await entries.next();
    const manifest = await readManifest(first.done === true ? undefined : first.value);
    if (manifest === null) throw new BackupError(`${source} is not a guildhall backup.`);
    if (manifest.blobs === 'folder' && config.blobBucket !== null) {
      throw new BackupError(
        'this backup holds its files for the folder store, but GUILDHALL_BLOB_URL names a bucket: restore without it, then copy blobs/ to the bucket (docs/operations.md).',
      );
    }
    for (let next = await entries.next(); next.done !== true; next = await entries.next()) {
      const entry = next.value;
      const path = restoredPath(entry.name);
      if (path === null) throw new BackupError(`${source} holds an unexpected file: ${entry.name}`);
      await mkdir(dirname(join(work, path)), { recursive: true, mode: 0o700 });
      const file = await open(join(work, path), 'w', 0o600);
      await pipeline(entry.body, file.createWriteStream());
      if (path.startsWith('blobs/') && !path.endsWith('.type')) files += 1;
    }
    const problem = existsSync(join(work, DATABASE))
      ? checkSqliteBackup(join(work, DATABASE))
      : 'it holds no database';
    if (problem !== null) throw new BackupError(`${source} cannot be restored: ${problem}.`);
    for (const name of await readdir(work)) await rename(join(work, name), join(dataDir, name));
  } catch (err) {
    await rm(work, { recursive: true, force: true });
    if (made) await rm(dataDir, { recursive: true, force: true });
    if (err instanceof TarError || (err as NodeJS.ErrnoException).code === 'Z_DATA_ERROR') {
      throw new BackupError(`${source} is not a guildhall backup (${(err as Error).message}).`);
    }
    throw err;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const key = existsSync(join(dataDir, 'secret.key'))
    ? 'its secret key'
    : 'no key file (set the GUILDHALL_SECRET_KEY it ran with)';
  return `Restored ${DATABASE}, ${key} and ${String(files)} files into ${dataDir}. Start the server on that folder.`;
}
