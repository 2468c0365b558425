/**
 * Installing the packed packages into an empty project outside the repository, offline, as a
 * user's `npm install` would, without downloading anything while the test runs:
 *
 * - `npm pack` of protocol, SDK, server and testkit gives the tarballs;
 * - the project's `package-lock.json` is derived from the repository's: the packed packages as
 *   `file:` tarballs, every third-party package at the version and integrity the repository
 *   installed. With a complete lockfile `npm install --offline` needs no registry metadata, only
 *   the tarballs by integrity, which the repository's own `npm install` left in npm's cache;
 * - better-sqlite3's install script (prebuild-install) finds its binary as a local prebuild
 *   made from the repository's compiled addon (same version, same Node ABI), as it would
 *   download one from its releases, instead of compiling SQLite again for two minutes;
 * - on a Node past the floor, where CI links the next better-sqlite3 major into node_modules
 *   (.ci/nodes.sh, docs/node-versions.md), the project overrides the server's better-sqlite3 with
 *   it, as docs/node-versions.md tells a deployment on that Node to: its lock entries come from
 *   the lock npm wrote beside it, and it ships its own binaries (no install script).
 *
 * @module
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { lstat, mkdir, readFile, realpath, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** The repository's root (this file is packages/testkit/test/support/). */
export const REPO = new URL('../../../../', import.meta.url).pathname;

/** The packed workspaces, by package name. */
export const PACKED = {
  '@guildhall/protocol': 'packages/protocol',
  '@guildhall/social-sdk': 'packages/sdk',
  '@guildhall/server': 'packages/server',
  '@guildhall/testkit': 'packages/testkit',
} as const;
type PackedName = keyof typeof PACKED;

interface LockEntry {
  version?: string;
  resolved?: string;
  integrity?: string;
  link?: boolean;
  optional?: boolean;
  devOptional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
  peerDependenciesMeta?: Record<string, { optional?: boolean }>;
  [field: string]: unknown;
}

/** Fields of a lock entry the derived lock keeps. */
const KEPT = ['version', 'license', 'bin', 'engines', 'os', 'cpu', 'libc', 'hasInstallScript'];
const DEPENDENCY_FIELDS = [
  'dependencies',
  'optionalDependencies',
  'peerDependencies',
  'peerDependenciesMeta',
];

/** `npm pack`s the packages into `dir`; their tarball paths by name. */
export async function packAll(dir: string): Promise<Record<PackedName, string>> {
  await mkdir(dir, { recursive: true });
  const args = ['pack', '--json', '--pack-destination', dir];
  for (const path of Object.values(PACKED)) args.push('-w', path);
  const { stdout } = await run('npm', args, { cwd: REPO, maxBuffer: 64 << 20 });
  const packed = JSON.parse(stdout) as { name: string; filename: string }[];
  const out: Partial<Record<PackedName, string>> = {};
  for (const p of packed) out[p.name as PackedName] = join(dir, p.filename);
  return out as Record<PackedName, string>;
}

/** Where node resolves `name` from `location` in the repository's lock (walking up). */
function resolveIn(packages: Record<string, LockEntry>, location: string, name: string) {
  let dir = location;
  for (;;) {
    const candidate = `${dir === '' ? '' : `${dir}/`}node_modules/${name}`;
    if (packages[candidate] !== undefined) return candidate;
    if (dir === '') return null;
    const nested = dir.lastIndexOf('/node_modules/');
    dir = nested < 0 ? '' : dir.slice(0, nested);
  }
}

/** The repository location of a workspace mapped to where it installs in the project. */
function installedAt(location: string): string {
  for (const [name, path] of Object.entries(PACKED))
    if (location === path || location.startsWith(`${path}/`))
      return `node_modules/${name}${location.slice(path.length)}`;
  return location;
}

async function integrityOf(file: string): Promise<string> {
  return `sha512-${createHash('sha512')
    .update(await readFile(file))
    .digest('base64')}`;
}

const SQLITE = 'node_modules/better-sqlite3';

/**
 * The better-sqlite3 linked in place of the repository's (.ci/nodes.sh `use_sqlite`): its lock
 * entries as node would resolve them from the project's `node_modules/better-sqlite3`, its own
 * dependencies nested under it. Null when node_modules holds the repository's own.
 */
async function linkedSqlite(): Promise<Record<string, LockEntry> | null> {
  const linked = join(REPO, SQLITE);
  if (!(await lstat(linked)).isSymbolicLink()) return null;
  const modules = dirname(await realpath(linked));
  const hidden = JSON.parse(await readFile(join(modules, '.package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const entry = hidden.packages[SQLITE];
  if (entry === undefined) throw new Error(`${modules}/.package-lock.json has no better-sqlite3`);
  const entries: Record<string, LockEntry> = { [SQLITE]: entry };
  for (const dep of Object.keys(entry.dependencies ?? {})) {
    const found = hidden.packages[`node_modules/${dep}`];
    if (found === undefined || Object.keys(found.dependencies ?? {}).length > 0)
      throw new Error(`better-sqlite3's dependency ${dep} is missing or has its own: extend this`);
    entries[`${SQLITE}/node_modules/${dep}`] = found;
  }
  return entries;
}

/**
 * Writes `package.json` and `package-lock.json` of a project depending on `tarballs`, with
 * every package they need at the version the repository has.
 */
export async function writeProject(project: string, tarballs: Record<PackedName, string>) {
  const lock = JSON.parse(await readFile(join(REPO, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, LockEntry>;
  };
  const sqlite = await linkedSqlite();
  const repoPackages = { ...lock.packages, ...sqlite };
  const entries: Record<string, LockEntry> = {};
  const visit = async (start: string, viaOptional: boolean): Promise<void> => {
    let location = start;
    let entry = repoPackages[location];
    if (entry?.link === true && typeof entry.resolved === 'string') {
      location = entry.resolved;
      entry = repoPackages[location];
    }
    if (entry === undefined) throw new Error(`the lock has no ${location}`);
    const target = installedAt(location);
    if (entries[target] !== undefined) return;
    const out: LockEntry = {};
    const name = (Object.keys(PACKED) as PackedName[]).find((n) => PACKED[n] === location);
    for (const field of name === undefined ? KEPT : ['version', 'license', 'bin', 'engines'])
      if (entry[field] !== undefined) out[field] = entry[field];
    if (name !== undefined) {
      out.resolved = `file:${tarballs[name]}`;
      out.integrity = await integrityOf(tarballs[name]);
    } else {
      out.integrity = entry.integrity;
      if (entry.optional === true || entry.devOptional === true || viaOptional) out.optional = true;
    }
    for (const field of DEPENDENCY_FIELDS)
      if (entry[field] !== undefined) out[field] = entry[field];
    entries[target] = out;
    const needed = new Map<string, boolean>();
    for (const dep of Object.keys(entry.dependencies ?? {})) needed.set(dep, false);
    for (const dep of Object.keys(entry.optionalDependencies ?? {})) needed.set(dep, true);
    for (const dep of Object.keys(entry.peerDependencies ?? {}))
      if (entry.peerDependenciesMeta?.[dep]?.optional !== true) needed.set(dep, false);
    for (const [dep, optional] of needed) {
      const found = resolveIn(repoPackages, location, dep);
      // An optional dependency for another platform is not installed in the repository.
      if (found === null) {
        if (optional) continue;
        throw new Error(`${location} needs ${dep}, which the repository's lock does not have`);
      }
      await visit(found, viaOptional || optional);
    }
  };
  const dependencies: Record<string, string> = {};
  for (const name of Object.keys(PACKED) as PackedName[]) {
    dependencies[name] = `file:${tarballs[name]}`;
    await visit(`node_modules/${name}`, false);
  }
  const root = { name: 'guildhall-install-check', version: '1.0.0', dependencies };
  const overrides =
    sqlite === null ? {} : { overrides: { 'better-sqlite3': sqlite[SQLITE]?.version } };
  await writeFile(
    join(project, 'package.json'),
    JSON.stringify({ ...root, ...overrides, private: true, type: 'module' }, null, 2),
  );
  await writeFile(
    join(project, 'package-lock.json'),
    JSON.stringify(
      { ...root, lockfileVersion: 3, requires: true, packages: { '': root, ...entries } },
      null,
      2,
    ),
  );
}

/**
 * A prebuild-install archive of the repository's compiled better-sqlite3, in `dir`; the
 * environment variable that points its install script at it.
 */
export async function localPrebuilds(dir: string): Promise<Record<string, string>> {
  await mkdir(dir, { recursive: true });
  const moduleDir = join(REPO, SQLITE);
  // A Node-API build (the next major) carries its binaries and has no install script.
  if (!existsSync(join(moduleDir, 'build/Release/better_sqlite3.node'))) return {};
  const { version } = JSON.parse(await readFile(join(moduleDir, 'package.json'), 'utf8')) as {
    version: string;
  };
  const abi = process.versions.modules;
  const name = `better-sqlite3-v${version}-node-v${abi}-${process.platform}-${process.arch}.tar.gz`;
  await run('tar', ['czf', join(dir, name), 'build/Release/better_sqlite3.node'], {
    cwd: moduleDir,
  });
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

/** `npm install --offline` in `project`. */
export async function installOffline(project: string, env: Record<string, string>) {
  return run('npm', ['install', '--offline', '--no-audit', '--no-fund'], {
    cwd: project,
    env: { ...process.env, ...env },
    maxBuffer: 64 << 20,
  });
}
