/**
 * The packages as a user installs them (docs/testing.md#install): `npm pack` of protocol, SDK,
 * server and testkit, installed offline into an empty project outside the repository
 * (support/packedInstall.ts says how nothing is downloaded), then used there: `npx guildhall`,
 * the SDK in Node and as the browser bundle, the testkit, and their types.
 */
import { spawn, execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PACKED,
  REPO,
  installOffline,
  localPrebuilds,
  packAll,
  writeProject,
} from './support/packedInstall.js';

const run = promisify(execFile);
/** Packing and installing ~180 packages offline takes a while on two cores. */
const INSTALL_TIMEOUT_MS = 240_000;
/** A server or compiler started in the project: seconds on a loaded two-core machine. */
const CHILD_TIMEOUT_MS = 90_000;

let root = '';
let project = '';

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'guildhall-packages-'));
  project = join(root, 'project');
  await run('mkdir', ['-p', project]);
  const tarballs = await packAll(join(root, 'packs'));
  await writeProject(project, tarballs);
  await installOffline(project, await localPrebuilds(join(root, 'prebuilds')));
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  if (root !== '') await rm(root, { recursive: true, force: true });
});

/** Runs an ES module in the project (as a user's script there) and returns its output. */
async function runInProject(name: string, source: string): Promise<string> {
  await writeFile(join(project, name), source);
  const { stdout } = await run(process.execPath, [name], { cwd: project, timeout: 60_000 });
  return stdout;
}

/** Every file path an `exports` map names (any condition, any subpath). */
function exportedFiles(exports: unknown): string[] {
  if (typeof exports === 'string') return [exports];
  if (typeof exports !== 'object' || exports === null) return [];
  return Object.values(exports).flatMap(exportedFiles);
}

describe('the packed packages, installed into an empty project', () => {
  it('each carries its licence, its version and an exports map whose files exist', async () => {
    const repoVersion = (path: string) =>
      readFile(join(REPO, path, 'package.json'), 'utf8').then(
        (text) => (JSON.parse(text) as { version: string }).version,
      );
    for (const [name, path] of Object.entries(PACKED)) {
      const dir = join(project, 'node_modules', name);
      const manifest = JSON.parse(await readFile(join(dir, 'package.json'), 'utf8')) as {
        version: string;
        license: string;
        exports: unknown;
        types?: string;
        dependencies?: Record<string, string>;
      };
      expect(manifest.license, name).toBe('MIT');
      expect(existsSync(join(dir, 'LICENSE')), `${name} LICENSE`).toBe(true);
      expect(manifest.version, name).toBe(await repoVersion(path));
      const files = exportedFiles(manifest.exports);
      expect(files.length, `${name} exports`).toBeGreaterThan(0);
      for (const file of files) expect(existsSync(join(dir, file)), `${name} ${file}`).toBe(true);
      // The packages name each other at the versions packed with them.
      for (const [dep, range] of Object.entries(manifest.dependencies ?? {}))
        if (dep in PACKED) expect(range, `${name} → ${dep}`).toBe(manifest.version);
    }
  });

  it(
    '`npx guildhall start` serves the API, the gateway and the web client',
    async () => {
      const help = await run('npx', ['--offline', 'guildhall', '--help'], { cwd: project });
      expect(help.stdout).toContain('start');
      // The bin npx ran above, started directly: a signal to npx does not reach its child, which
      // would outlive the test.
      const child = spawn(
        join(project, 'node_modules', '.bin', 'guildhall'),
        ['start', '--port', '0', '--data-dir', join(root, 'data')],
        { cwd: project, env: { ...process.env, GUILDHALL_LOG_LEVEL: 'warn' } },
      );
      try {
        const base = await new Promise<string>((resolve, reject) => {
          let out = '';
          child.stdout.on('data', (chunk: Buffer) => {
            out += chunk.toString('utf8');
            const found = /API:\s+(http:\/\/127\.0\.0\.1:\d+)\/api\/v10/.exec(out);
            if (found?.[1] !== undefined) resolve(found[1]);
          });
          child.once('exit', (code) => {
            reject(new Error(`guildhall start exited ${String(code)}: ${out}`));
          });
        });
        expect((await fetch(`${base}/readyz`)).status).toBe(200);
        const gateway = (await (await fetch(`${base}/api/v10/gateway`)).json()) as { url: string };
        expect(gateway.url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+/);
        const page = await fetch(`${base}/`);
        expect(page.status).toBe(200);
        expect(await page.text()).toContain('<div id="root">');
      } finally {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
    },
    CHILD_TIMEOUT_MS,
  );

  it('imports the SDK in Node and its browser bundle', async () => {
    const out = await runInProject(
      'sdk.mjs',
      `import { Client, SDK_VERSION } from '@guildhall/social-sdk';
       const bundle = await import('@guildhall/social-sdk/browser-bundle');
       const voice = await import('@guildhall/social-sdk/voice');
       console.log(JSON.stringify({
         node: typeof Client, version: SDK_VERSION,
         bundle: typeof bundle.Client, voice: typeof voice.openVoiceConnection,
       }));`,
    );
    expect(JSON.parse(out)).toEqual({
      node: 'function',
      version: expect.any(String) as string,
      bundle: 'function',
      voice: 'function',
    });
  });

  it(
    'starts the platform with the testkit and acts as a person',
    async () => {
      const out = await runInProject(
        'kit.mjs',
        `import { startGuildhall } from '@guildhall/testkit';
       // Plain Node 20 has no \`await using\`: close in finally (TypeScript and Node 24 have it).
       const gh = await startGuildhall({
         world: {
           people: { ann: null },
           guilds: { home: { owner: 'ann', channels: { general: { type: 'text' } } } },
         },
       });
       try {
         const ann = gh.people.get('ann');
         const sent = await ann.send(gh.world.guilds.home.channels.general, 'hello from a package');
         const [latest] = await ann.messages(sent.channel_id, { limit: 1 });
         console.log(JSON.stringify({ content: latest.content, author: latest.author.username }));
       } finally {
         await gh.close();
       }`,
      );
      expect(JSON.parse(out)).toEqual({ content: 'hello from a package', author: 'ann' });
    },
    CHILD_TIMEOUT_MS,
  );

  it(
    'gives TypeScript the types of each package',
    async () => {
      await writeFile(
        join(project, 'check.ts'),
        `import { createApp, type LoadedWorld } from '@guildhall/server';
       import { Client } from '@guildhall/social-sdk';
       import { startGuildhall, type Guildhall } from '@guildhall/testkit';
       import { PermissionFlags } from '@guildhall/protocol';
       export const used: [typeof createApp, typeof Client, typeof startGuildhall] =
         [createApp, Client, startGuildhall];
       export type Used = [LoadedWorld, Guildhall, typeof PermissionFlags];`,
      );
      await writeFile(
        join(project, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            target: 'ES2022',
            lib: ['ES2023', 'esnext.disposable', 'DOM'],
            types: [],
            strict: true,
            noEmit: true,
            skipLibCheck: true,
          },
          files: ['check.ts'],
        }),
      );
      const tsc = join(REPO, 'node_modules/typescript/bin/tsc');
      await expect(
        run(process.execPath, [tsc, '-p', project], { cwd: project }),
      ).resolves.toBeTruthy();
    },
    CHILD_TIMEOUT_MS,
  );
});
