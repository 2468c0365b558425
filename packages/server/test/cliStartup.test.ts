/**
 * `guildhall start` failures an operator fixes outside Guildhall (a database or NATS not
 * reachable, a database that does not exist, a port already taken, a split role without a
 * shared bus): one line saying what is wrong and what to do, exit code 2, no stack trace.
 */
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runCli } from '../src/cli/index.js';
import { capture, useCliDataDir } from './support/cliFixture.js';
import { BUILT_MAIN } from './support/cluster.js';
import { TEST_DATABASE_URL } from './support/postgres.js';

/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('guildhall start: failures at start', () => {
  const { dataDir } = useCliDataDir('guildhall-start-');

  const start = async (argv: string[], env: Record<string, string> = {}) => {
    const c = capture();
    const code = await runCli(
      ['start', '--port', '0', '--no-demo', '--data-dir', dataDir(), ...argv],
      env,
      c.io,
    );
    return { code, out: c.out(), err: c.err() };
  };

  it('PostgreSQL not reachable', async () => {
    const port = await closedPort();
    const { code, out, err } = await start([], {
      DATABASE_URL: `postgres://app:hunter2@127.0.0.1:${port}/guildhall`,
    });
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toBe(
      `guildhall: PostgreSQL at 127.0.0.1:${port}/guildhall cannot be reached (ECONNREFUSED). Start PostgreSQL there or correct DATABASE_URL (--database-url), or unset it to use SQLite in the data folder; then start again.\n`,
    );
  });

  it('a PostgreSQL database that does not exist', async () => {
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = '/guildhall_no_such_database';
    const { code, err } = await start([], { DATABASE_URL: url.href });
    expect(code).toBe(2);
    expect(err).toBe(
      `guildhall: PostgreSQL at ${url.hostname}:${url.port || '5432'}/guildhall_no_such_database: database "guildhall_no_such_database" does not exist. Create it (createdb -h ${url.hostname} -p ${url.port || '5432'} guildhall_no_such_database) or correct DATABASE_URL (--database-url), or unset it to use SQLite in the data folder; then start again.\n`,
    );
  });

  it('NATS not reachable', async () => {
    const port = await closedPort();
    const { code, out, err } = await start([], { NATS_URL: `nats://127.0.0.1:${port}` });
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toMatch(
      new RegExp(
        `^guildhall: NATS at nats://127\\.0\\.0\\.1:${port} cannot be reached \\(.+\\)\\. Start nats-server there \\(with -js for JetStream\\) or correct NATS_URL \\(--nats-url\\), or unset it to run as one node; then start again\\.\\n$`,
      ),
    );
  });

  it('a port already in use', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as AddressInfo;
    try {
      const { code, out, err } = await start(['--port', String(port)]);
      expect({ code, out }).toEqual({ code: 2, out: '' });
      expect(err).toBe(
        `guildhall: 127.0.0.1:${port} is already in use (another guildhall? \`guildhall status\` tells). Stop it, or choose another port with --port (GUILDHALL_PORT); then start again.\n`,
      );
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it.each(['api', 'gateway', 'voice'])('--role %s without NATS refuses to start', async (role) => {
    const { code, out, err } = await start(['--role', role]);
    expect({ code, out }).toEqual({ code: 2, out: '' });
    expect(err).toMatch(
      new RegExp(
        `^guildhall: --role ${role} serves only .+ and needs NATS shared with the other nodes: set NATS_URL \\(--nats-url\\), or leave --role at all to serve everything from this process\\.\\n$`,
      ),
    );
  });

  it('the process prints the line without a stack trace and exits 2', async () => {
    const port = await closedPort();
    // The built CLI, as `npx guildhall start` runs it (tsx compiling the sources is slower).
    const child = spawn(
      process.execPath,
      [BUILT_MAIN, 'start', '--port', '0', '--no-demo', '--data-dir', dataDir()],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, DATABASE_URL: `postgres://127.0.0.1:${port}/guildhall` },
      },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toEqual([
      `guildhall: PostgreSQL at 127.0.0.1:${port}/guildhall cannot be reached (ECONNREFUSED). Start PostgreSQL there or correct DATABASE_URL (--database-url), or unset it to use SQLite in the data folder; then start again.`,
    ]);
  });
});
