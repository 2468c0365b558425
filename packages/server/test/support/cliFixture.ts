/**
 * The operator commands as tests run them: `runCli` in process, on a fresh data folder per test,
 * with what it printed captured.
 *
 * @module
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { runCli } from '../../src/cli/index.js';

/** Captures a command's output; `stdin` is what it reads when it asks for a password. */
export function capture(stdin = '') {
  let out = '';
  let err = '';
  return {
    io: {
      stdout: (t: string) => (out += t),
      stderr: (t: string) => (err += t),
      stopSignal: new Promise<string>(() => undefined),
      readStdin: () => Promise.resolve(stdin),
    },
    out: () => out,
    err: () => err,
  };
}

/** A data folder made before each test and removed after it, and `run` over it. */
export function useCliDataDir(prefix: string) {
  let dataDir = '';
  beforeEach(async () => {
    dataDir = await mkdtemp(join(tmpdir(), prefix));
  });
  afterEach(() => rm(dataDir, { recursive: true, force: true }));

  /** Runs `guildhall <argv> --data-dir <the folder>`, `stdin` on its standard input. */
  const runWithStdin = async (stdin: string, ...argv: string[]) => {
    const c = capture(stdin);
    const code = await runCli([...argv, '--data-dir', dataDir], {}, c.io);
    const out = c.out();
    return { code, out, err: c.err(), json: () => JSON.parse(out) as Record<string, unknown> };
  };
  /** Runs `guildhall <argv> --data-dir <the folder>`. */
  const run = (...argv: string[]) => runWithStdin('', ...argv);

  /** A user and an application of theirs, made with the commands; their ids. */
  const userAndApp = async (username: string, appName: string) => {
    const user = await run(
      ...['user', 'create', '--username', username],
      ...['--email', `${username}@example.test`, '--password', 'long enough password'],
    );
    const userId = user.json()['user_id'] as string;
    const app = await run('app', 'create', '--owner', userId, '--name', appName);
    return { userId, applicationId: app.json()['application_id'] as string };
  };

  return { run, runWithStdin, userAndApp, dataDir: () => dataDir };
}
