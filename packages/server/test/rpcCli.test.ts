/**
 * `guildhall rpc` and `guildhall start --rpc` as the CLI runs them (runCli in process, a real
 * platform, a real socket): the help, the startup line with the socket path, the warning about a
 * token file others can read, the errors that say what to do next, a clean stop on a signal, and
 * the token never printed.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { IpcOpcodes as Op } from '@guildhall/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli, type CliIo } from '../src/cli/index.js';
import { uniqueName, useFileServer } from './support/fileServer.js';
import { rawIpc } from './support/rpcFixture.js';
import { seedDeveloper, type TestServer } from './support/testServer.js';

/** A CLI io whose stop signal the test gives, and a wait for a line on stdout. */
function controlledIo() {
  let out = '';
  let err = '';
  let stop: (signal: string) => void = () => undefined;
  const listeners: (() => void)[] = [];
  const io: CliIo = {
    stdout: (text) => {
      out += text;
      for (const listener of listeners.splice(0)) listener();
    },
    stderr: (text) => {
      err += text;
    },
    stopSignal: new Promise<string>((resolve) => {
      stop = resolve;
    }),
    readStdin: () => Promise.resolve(''),
  };
  const printed = async (pattern: RegExp): Promise<RegExpExecArray> => {
    for (;;) {
      const match = pattern.exec(out);
      if (match !== null) return match;
      await new Promise<void>((resolve) => listeners.push(resolve));
    }
  };
  return {
    io,
    out: () => out,
    err: () => err,
    stop: (s = 'SIGTERM') => {
      stop(s);
    },
    printed,
  };
}

async function handshake(path: string, clientId: string) {
  const ipc = await rawIpc(path);
  ipc.send(Op.HANDSHAKE, { v: 1, client_id: clientId });
  const ready = await ipc.next((f) => f.op === Op.FRAME);
  ipc.socket.destroy();
  return ready.data as { evt: string; data: { user: { id: string } } };
}

describe('guildhall rpc', () => {
  let server: TestServer;
  let dir: string;
  let seed: Awaited<ReturnType<typeof seedDeveloper>>;
  const shared = useFileServer({ listen: true });
  beforeEach(async () => {
    server = shared.server;
    seed = await seedDeveloper(server.app, uniqueName('ada'), 'ada app');
    dir = await mkdtemp(join(tmpdir(), 'guildhall-rpc-cli-'));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints its help', async () => {
    const c = controlledIo();
    expect(await runCli(['rpc', '--help'], {}, c.io)).toBe(0);
    expect(c.out()).toContain(
      'Usage: guildhall rpc --api-url URL --token-file FILE [--consent prompt|allow|deny]',
    );
    expect(c.out()).toContain('$XDG_RUNTIME_DIR, $TMPDIR, $TMP, $TEMP');
    const main = controlledIo();
    await runCli(['--help'], {}, main.io);
    expect(main.out()).toMatch(/\n {2}rpc {14}Serve RPC clients/);
  });

  it('serves on the first free socket, warns about a readable token file, stops on a signal', async () => {
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, `${seed.userToken}\n`);
    await chmod(tokenFile, 0o644);
    const c = controlledIo();
    const env = { XDG_RUNTIME_DIR: dir };
    const exit = runCli(
      ['rpc', '--api-url', server.baseUrl, '--token-file', tokenFile, '--consent', 'allow'],
      env,
      c.io,
    );
    const [line, path] = await c.printed(
      new RegExp(
        `RPC: listening on (\\S+)(?: and \\S+)? for ${seed.username} \\(\\d+\\); consent: allow`,
      ),
    );
    expect(path).toBe(join(dir, 'discord-ipc-0'));
    expect(line).toBeDefined();
    expect(c.err()).toContain(`warning: ${tokenFile} can be read by others (mode 644)`);
    expect(c.err()).toContain(`chmod 600 ${tokenFile}`);
    const ready = await handshake(join(dir, 'discord-ipc-0'), seed.applicationId);
    expect(ready).toMatchObject({ evt: 'READY', data: { user: { id: seed.userId } } });

    c.stop();
    expect(await exit).toBe(0);
    for (const text of [c.out(), c.err()]) expect(text).not.toContain(seed.userToken);
  });

  it('stops with exit code 1 when the person logs out (the gateway refuses the session)', async () => {
    const login = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/auth/login',
      payload: { login: `${seed.username}@example.test`, password: 'correct horse battery' },
    });
    const token = login.json<{ token: string }>().token;
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, token, { mode: 0o600 });
    const c = controlledIo();
    const exit = runCli(
      ['rpc', '--api-url', server.baseUrl, '--token-file', tokenFile],
      { XDG_RUNTIME_DIR: dir },
      c.io,
    );
    await c.printed(/RPC: listening on/);
    const logout = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/auth/logout',
      headers: { authorization: token },
    });
    expect(logout.statusCode).toBe(204);
    expect(await exit).toBe(1);
    expect(c.err()).toContain(
      'guildhall rpc: the gateway refused the session token (close 4004): log in again and write the new token to the token file.',
    );
  });

  it('says what to do next when the token, the URL or the consent mode is wrong', async () => {
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, 'not-a-session-token');
    await chmod(tokenFile, 0o600);
    const env = { XDG_RUNTIME_DIR: dir };
    const refused = controlledIo();
    expect(
      await runCli(
        ['rpc', '--api-url', server.baseUrl, '--token-file', tokenFile],
        env,
        refused.io,
      ),
    ).toBe(1);
    expect(refused.err()).toBe(
      `guildhall rpc: the platform refused the token in ${tokenFile} (401): log in again (the web client, or \`guildhall user login-link\`) and write the new session token there.\n`,
    );
    expect(refused.err()).not.toContain('not-a-session-token');

    const missing = controlledIo();
    expect(
      await runCli(
        ['rpc', '--api-url', server.baseUrl, '--token-file', join(dir, 'nope')],
        env,
        missing.io,
      ),
    ).toBe(2);
    expect(missing.err()).toContain(`cannot read the token file ${join(dir, 'nope')} (ENOENT)`);

    await writeFile(tokenFile, seed.userToken);
    const prompt = controlledIo();
    expect(
      await runCli(
        ['rpc', '--api-url', server.baseUrl, '--token-file', tokenFile, '--consent', 'prompt'],
        env,
        prompt.io,
      ),
    ).toBe(2);
    expect(prompt.err()).toContain('--consent prompt needs a terminal');

    const down = controlledIo();
    expect(
      await runCli(
        ['rpc', '--api-url', 'http://127.0.0.1:9', '--token-file', tokenFile],
        env,
        down.io,
      ),
    ).toBe(1);
    expect(down.err()).toContain('cannot reach the platform at http://127.0.0.1:9/api/v10');
    expect(down.err()).toContain('guildhall start');

    const noFlag = controlledIo();
    expect(await runCli(['rpc', '--api-url', server.baseUrl], env, noFlag.io)).toBe(2);
    expect(noFlag.err()).toContain('missing --token-file');
  });
});

describe('guildhall start --rpc', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guildhall-start-rpc-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  it('serves RPC as the demo developer beside the platform', async () => {
    const c = controlledIo();
    const dataDir = join(dir, 'data');
    const exit = runCli(
      [
        ...['start', '--rpc', '--rpc-consent', 'deny', '--port', '0'],
        ...['--data-dir', dataDir, '--log-level', 'silent'],
      ],
      { XDG_RUNTIME_DIR: dir },
      c.io,
    );
    const [, path] = await c.printed(
      /RPC: listening on (\S+)(?: and \S+)? for demo \(\d+\); consent: deny/,
    );
    const demo = JSON.parse(await readFile(join(dataDir, 'demo.json'), 'utf8')) as {
      application_id: string;
      user_id: string;
    };
    expect(path).toBe(join(dir, 'discord-ipc-0'));
    const ready = await handshake(join(dir, 'discord-ipc-0'), demo.application_id);
    expect(ready.data.user.id).toBe(demo.user_id);
    c.stop();
    expect(await exit).toBe(0);
  });

  it('refuses --rpc-consent without --rpc', async () => {
    const c = controlledIo();
    expect(await runCli(['start', '--rpc-consent', 'allow'], {}, c.io)).toBe(2);
    expect(c.err()).toBe('guildhall: --rpc-consent goes with --rpc.\n');
  });
});
