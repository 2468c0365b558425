import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { collectChild, spawnSupportScript } from '../test/support/children.js';
import { createLogDestination, type LogDestination } from './logDestination.js';

const flushed = (destination: LogDestination) =>
  new Promise<void>((resolve) => {
    destination.flush(() => {
      resolve();
    });
  });

/** The numbers of the `numbered` lines logWriter.ts printed, in the order they came. */
function numberedLines(stdout: string): number[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => (JSON.parse(line) as { line: number }).line);
}

const range = (count: number) => Array.from({ length: count }, (_, i) => i);

describe('the log destination', () => {
  let dir = '';
  let fd = -1;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'guildhall-log-'));
    fd = openSync(join(dir, 'out.log'), 'a');
  });
  afterEach(async () => {
    closeSync(fd);
    await rm(dir, { recursive: true, force: true });
  });

  it('writes every line in order, in batches, and calls back once they are out', async () => {
    const destination = createLogDestination(fd);
    // 5,000 lines of 101 characters: several batches of 64 KiB and a rest.
    const lines = range(5000).map((i) => `${String(i).padStart(100, '.')}\n`);
    for (const line of lines) destination.write(line);
    await flushed(destination);
    expect(await readFile(join(dir, 'out.log'), 'utf8')).toBe(lines.join(''));
    destination.write('after\n');
    await flushed(destination);
    expect(await readFile(join(dir, 'out.log'), 'utf8')).toBe(`${lines.join('')}after\n`);
  });

  it('drops what a slow output cannot take, and says how many lines it dropped', async () => {
    const destination = createLogDestination(fd, { maxPendingChars: 100 });
    // Within one turn of the event loop nothing is written: the first ten lines fill the queue.
    for (const i of range(15)) destination.write(`${String(i).padStart(9, '0')}\n`);
    await flushed(destination);
    destination.write('after\n');
    await flushed(destination);
    const written = (await readFile(join(dir, 'out.log'), 'utf8')).split('\n');
    expect(JSON.parse(written[0] ?? '')).toEqual({
      level: 40,
      msg: '5 log lines dropped: the log output did not keep up',
    });
    expect(written.slice(1)).toEqual([
      ...range(10).map((i) => String(i).padStart(9, '0')),
      'after',
      '',
    ]);
  });
});

describe('the process logger on standard output', () => {
  it('writes out what is queued when the process exits', async () => {
    const result = await collectChild(spawnSupportScript('logWriter', ['exit', '200']));
    expect(result.code, result.stderr).toBe(0);
    expect(numberedLines(result.stdout)).toEqual(range(200));
  });

  it('writes out what is queued when the process dies of an uncaught exception', async () => {
    const result = await collectChild(spawnSupportScript('logWriter', ['throw', '200']));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the writer died');
    expect(numberedLines(result.stdout)).toEqual(range(200));
  });

  it('passes megabytes through a pipe whole and in order', async () => {
    const result = await collectChild(spawnSupportScript('logWriter', ['end', '20000']));
    expect(result.code, result.stderr).toBe(0);
    expect(numberedLines(result.stdout)).toEqual(range(20000));
  });
});
