import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { prettyLine } from './logPretty.js';

const at = new Date(2026, 11, 5, 21, 13, 5).getTime();

describe('pretty log lines', () => {
  it('leaves out the requests that went well and shows the others in one line', () => {
    const request = (statusCode: number) =>
      JSON.stringify({
        level: 30,
        time: at,
        reqId: 'req-1',
        method: 'GET',
        url: '/api/v10/users/@me',
        statusCode,
        responseTime: 1.5,
        msg: 'request completed',
      });
    expect(prettyLine(request(200))).toBeNull();
    expect(prettyLine(request(304))).toBeNull();
    expect(prettyLine(request(404))).toBe('21:13:05 INFO  GET /api/v10/users/@me → 404 (1.5 ms)\n');
  });

  it('writes the message, then its fields as key=value, and an error by its message', () => {
    const line = JSON.stringify({
      level: 40,
      time: at,
      pid: 1,
      hostname: 'h',
      session: '123',
      reason: 'heartbeat missed',
      err: { message: 'socket closed', stack: 'Error: socket closed\n    at x' },
      msg: 'gateway session closed',
    });
    expect(prettyLine(line)).toBe(
      '21:13:05 WARN  gateway session closed session=123 reason="heartbeat missed" (socket closed)\n',
    );
    const fatal = JSON.stringify({
      level: 50,
      time: at,
      err: { stack: 'Error: x\n    at y' },
      msg: 'crashed',
    });
    expect(prettyLine(fatal)).toBe('21:13:05 ERROR crashed\nError: x\n    at y\n');
  });

  it('passes through what is not JSON', () => {
    expect(prettyLine('plain text')).toBe('plain text\n');
  });

  it('`guildhall start --log-format pretty` keeps the banner on screen while requests go well', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'guildhall-pretty-'));
    const main = new URL('./main.ts', import.meta.url).pathname;
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        main,
        'start',
        '--port',
        '0',
        '--data-dir',
        dataDir,
        '--log-format',
        'pretty',
      ],
      {
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.test.json' },
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    try {
      const apiUrl = await new Promise<string>((resolve, reject) => {
        child.once('exit', (code) => {
          reject(new Error(`exited ${String(code)}: ${stdout}`));
        });
        const poll = setInterval(() => {
          // The banner is one write: once its last part is there, all of it is.
          const match = /API:\s+(\S+)/.exec(stdout);
          if (match?.[1] === undefined || !stdout.includes('Privileged intents')) return;
          clearInterval(poll);
          resolve(match[1]);
        }, 50);
      });
      const before = stdout;
      for (let i = 0; i < 5; i++) await fetch(`${apiUrl}/gateway`);
      await fetch(`${apiUrl}/users/@me`);
      // The refused request's line is the last one expected: wait for it (a loaded machine may
      // take a while to write it), then check that nothing else came.
      await expect.poll(() => stdout.slice(before.length), { timeout: 10_000 }).toContain('→ 401');
      const after = stdout.slice(before.length);
      // No JSON line at all, nothing for the five good requests, one line for the refused one.
      expect(after).not.toContain('{"level"');
      expect(after).not.toContain('/gateway ');
      expect(after).toMatch(
        /^\d\d:\d\d:\d\d INFO {2}GET \/api\/v10\/users\/@me → 401 \([\d.]+ ms\)\n$/,
      );
    } finally {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
