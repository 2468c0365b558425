/**
 * `guildhall start --world FILE`: the world loaded into the data folder once, its ids and tokens
 * written to `<data-dir>/world.json` (mode 0600), and reused on later starts of the same folder.
 */
import { createHash } from 'node:crypto';
import { chmod, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { App } from '../app.js';
import { ConfigError } from '../config.js';
import { DEFAULT_WORLD_SEED } from '../control/world.js';
import type { LoadedWorld } from '../control/worldTypes.js';
import { readWorldFile } from '../control/worldFile.js';
import { checkWorldReferences } from '../control/worldRefs.js';
import type { ParsedWorld } from '../control/worldSchema.js';
import { hashSecret } from '../domain/credentials.js';

export const WORLD_RECORD_FILE = 'world.json';

/** What world.json holds: where the server is, which world it loaded, and its ids and tokens. */
export interface WorldRecord {
  api_url: string;
  gateway_url: string;
  world_file: string;
  /** SHA-256 of the world file's text and seed: a changed file is another world. */
  digest: string;
  world: LoadedWorld;
}

async function readRecord(path: string): Promise<WorldRecord | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as WorldRecord;
  } catch {
    return null;
  }
}

/** Whether the world's credentials still open this database (a person's or a bot's token). */
async function stillLoaded(app: App, world: LoadedWorld): Promise<boolean> {
  const tokens = [
    ...Object.values(world.people).map((p) => p.token),
    ...Object.values(world.applications).map((a) => a.botToken),
  ];
  const found = await Promise.all(
    tokens.map((token) => app.storage.tokens.findByHash(hashSecret(token))),
  );
  return found.every((record) => record !== null);
}

/** A world file read and checked before the server starts. */
export interface WorldToStart {
  file: string;
  world: ParsedWorld;
  digest: string;
}

/**
 * Reads and checks `--world FILE` (schema and names), before anything starts.
 * @throws ConfigError when the file cannot be read; WorldError when it is not a valid world.
 */
export async function readWorldToStart(file: string): Promise<WorldToStart> {
  const worldFile = resolve(file);
  const text = await readFile(worldFile, 'utf8').catch((err: unknown) => {
    throw new ConfigError(
      `cannot read the world file ${worldFile} (${err instanceof Error ? err.message : String(err)}): check --world`,
    );
  });
  const world = await readWorldFile(worldFile);
  checkWorldReferences(world, worldFile);
  const digest = createHash('sha256')
    .update(`${text}\0${world.seed ?? DEFAULT_WORLD_SEED}`)
    .digest('hex');
  return { file: worldFile, world, digest };
}

/**
 * Loads the world (or finds it loaded by an earlier start), writes world.json, and marks the
 * point the HTTP controls' reset returns to.
 * @throws ConfigError when the data folder holds another world.
 */
export async function startWithWorld(
  app: App,
  { file: worldFile, world, digest }: WorldToStart,
): Promise<{ record: WorldRecord; path: string; reused: boolean }> {
  const path = join(app.config.dataDir, WORLD_RECORD_FILE);
  const urls = { api_url: app.apiUrl(), gateway_url: app.gatewayUrl() };
  const recorded = await readRecord(path);
  if (recorded !== null && (await stillLoaded(app, recorded.world))) {
    if (recorded.digest !== digest) {
      throw new ConfigError(
        `the data folder ${app.config.dataDir} holds the world of ${recorded.world_file} (as it was then): start with an empty --data-dir to load ${worldFile}`,
      );
    }
    const record = { ...recorded, ...urls };
    await writeRecord(path, record);
    await app.worlds.adopt(record.world);
    return { record, path, reused: true };
  }
  const loaded = await app.worlds.load(world);
  const record = { ...urls, world_file: worldFile, digest, world: loaded };
  await writeRecord(path, record);
  return { record, path, reused: false };
}

async function writeRecord(path: string, record: WorldRecord): Promise<void> {
  const temp = `${path}.tmp`;
  await writeFile(temp, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, path);
}

/** The start banner of a server with a world. */
export function worldBanner(
  app: App,
  loaded: { record: WorldRecord; path: string; reused: boolean },
): string {
  const { world } = loaded.record;
  const count = (name: string, things: object) =>
    `${Object.keys(things).length} ${name}${Object.keys(things).length === 1 ? '' : 's'}`;
  return [
    '',
    'Guildhall is running.',
    `  API:      ${app.apiUrl()}`,
    `  Gateway:  ${app.gatewayUrl()}`,
    `  World:    ${loaded.record.world_file} (seed ${world.seed}: ${[
      count('person', world.people).replace(/persons$/, 'people'),
      count('application', world.applications),
      count('guild', world.guilds),
      count('lobby', world.lobbies).replace(/lobbys$/, 'lobbies'),
    ].join(', ')})${loaded.reused ? ', reused from an earlier start' : ''}`,
    `  Ids and tokens by the world's names: ${loaded.path}`,
    '',
  ].join('\n');
}
