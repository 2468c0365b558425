/**
 * @module control/runFile: how a `guildhall` command finds the server running on its data folder.
 * A listening server writes `<data-dir>/control.json` (mode 0600: its URL, process id, database
 * and a run token made at start) and removes it when it stops; an operator command that finds a
 * live one runs inside that server (`POST /_guildhall/v1/admin/commands`), so its sessions see
 * the change, instead of writing to the database behind its back.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hashSecret } from '../domain/credentials.js';

export const RUN_FILE_NAME = 'control.json';
const RUN_TOKEN_BYTES = 32;

export interface RunFile {
  /** The server's base URL (no /api). */
  url: string;
  pid: number;
  /** Which database it serves: null for SQLite in the data folder, else the URL's SHA-256. */
  database: string | null;
  /** What `Authorization: Bearer` carries to its controls. */
  token: string;
}

/** Which database a config names, as the run file says it. */
export function databaseIdentity(databaseUrl: string | null): string | null {
  return databaseUrl === null ? null : hashSecret(databaseUrl);
}

export function newRunToken(): string {
  return randomBytes(RUN_TOKEN_BYTES).toString('base64url');
}

/** Writes the run file (whole or not at all: a temporary file renamed over it). */
export async function writeRunFile(dataDir: string, run: RunFile): Promise<void> {
  const path = join(dataDir, RUN_FILE_NAME);
  const temporary = `${path}.${String(process.pid)}.tmp`;
  await writeFile(temporary, `${JSON.stringify(run, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

/** The run file, or null when there is none (or it cannot be read). */
export async function readRunFile(dataDir: string): Promise<RunFile | null> {
  try {
    const parsed = JSON.parse(
      await readFile(join(dataDir, RUN_FILE_NAME), 'utf8'),
    ) as Partial<RunFile>;
    if (
      typeof parsed.url !== 'string' ||
      typeof parsed.token !== 'string' ||
      typeof parsed.pid !== 'number'
    ) {
      return null;
    }
    return {
      url: parsed.url,
      pid: parsed.pid,
      token: parsed.token,
      database: parsed.database ?? null,
    };
  } catch {
    return null;
  }
}

/** Removes the run file if it is still this server's (another may have started since). */
export async function removeRunFile(dataDir: string, token: string): Promise<void> {
  const current = await readRunFile(dataDir);
  if (current?.token === token) await rm(join(dataDir, RUN_FILE_NAME), { force: true });
}

/** Whether a process by that id is alive (a stale file a crash left names a dead one). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but someone else's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
