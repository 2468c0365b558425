/**
 * The `guildhall` bin as installed: the bundle scripts/bundleCli.js makes of dist/ (its chunks
 * flat in packages/server/bundle). Run as a child process, it finds the files the modules of
 * dist/ find beside them (migrations, worlds, the web build) and loads on demand what a start
 * needs only sometimes (a YAML world's parser, the voice node's certificate).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WorldRecord } from '../src/cli/worldStart.js';
import { BUILT_MAIN } from './support/cluster.js';

const WORLD_YAML = `seed: bundle
people:
  ann: null
applications:
  greeter:
    owner: ann
guilds:
  home:
    owner: ann
    bots:
      greeter: null
`;

/** Runs the bin to its end; resolves to its exit code and output. */
function run(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BUILT_MAIN, ...args], { stdio: 'pipe' });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      resolve({ code, out });
    });
  });
}

describe('the bundled guildhall bin', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guildhall-bundle-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints its help', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('Commands:');
  });

  it('starts on a new folder with a YAML world and serves it, then stops on SIGTERM', async () => {
    const worldFile = join(dir, 'world.yaml');
    await writeFile(worldFile, WORLD_YAML);
    const dataDir = join(dir, 'world');
    const server = await startBin(['--data-dir', dataDir, '--world', worldFile]);
    try {
      const record = JSON.parse(await readFile(join(dataDir, 'world.json'), 'utf8')) as WorldRecord;
      const bot = record.world.applications['greeter'];
      const res = await fetch(`${record.api_url}/users/@me`, {
        headers: { authorization: `Bot ${bot?.botToken ?? ''}` },
      });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { id: string }).id).toBe(bot?.botUserId);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it("starts the demo with the voice node's development certificate in its banner", async () => {
    const dataDir = join(dir, 'demo');
    const server = await startBin(['--data-dir', dataDir]);
    const cert = join(dataDir, 'voice-tls', 'cert.pem');
    expect(server.out()).toContain(`NODE_EXTRA_CA_CERTS=${cert}`);
    expect(await readFile(cert, 'utf8')).toContain('BEGIN CERTIFICATE');
    expect(await server.stop()).toBe(0);
  });
});

/** `guildhall start` on free ports; resolves once its banner says it is running. */
async function startBin(
  args: string[],
): Promise<{ out: () => string; stop: () => Promise<number | null> }> {
  const child = spawn(
    process.execPath,
    [BUILT_MAIN, 'start', '--port', '0', '--voice-port', '0', ...args],
    {
      stdio: 'pipe',
    },
  );
  let out = '';
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('Guildhall is running')) resolve();
    });
    void exited.then((code) => {
      reject(new Error(`exited ${String(code)} before ready: ${out}`));
    });
  });
  return {
    out: () => out,
    stop: () => {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
