import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/sizes.js', import.meta.url));
const run = promisify(execFile);
const roots: string[] = [];

/** A workspace at a new temporary root: `packages/<pkg>/src/<file>` → its text. */
async function workspace(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'guildhall-sizes-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(root, 'packages', path)), { recursive: true });
    await writeFile(join(root, 'packages', path), text);
  }
  return root;
}

/** Runs the checker on `root`: its exit code and what it printed. */
async function check(root: string): Promise<{ code: number; out: string }> {
  try {
    const { stdout } = await run(process.execPath, [SCRIPT, root]);
    return { code: 0, out: stdout };
  } catch (err) {
    const failed = err as { code: number; stdout: string };
    return { code: failed.code, out: failed.stdout };
  }
}

/** `count` lines of statements. */
const statements = (count: number): string =>
  Array.from({ length: count }, (_, i) => `  const v${i} = ${i};\n`).join('');

/** A factory of `lines` lines in all (its first and last line included). */
const factory = (name: string, lines: number): string =>
  `export function ${name}() {\n${statements(lines - 2)}}\n`;

afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe('scripts/sizes.js', () => {
  it('refuses a function over 250 lines, inner functions counted, and names it', async () => {
    const root = await workspace({
      'a/src/service.ts': factory('createSmall', 200) + factory('createHuge', 251),
      'a/src/arrow.ts': `export const build = () => {\n  const inner = () => 1;\n${statements(249)}};\n`,
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain('packages/a/src/service.ts:201: createHuge is 251 lines (at most 250)');
    expect(out).toContain('packages/a/src/arrow.ts:1: build is 252 lines (at most 250)');
    expect(out).not.toContain('createSmall');
    expect(out).toContain('2 over the size limits');
  });

  it('refuses a class over 250 lines and a file over 500', async () => {
    const methods = Array.from({ length: 130 }, (_, i) => `  m${i}() {\n    return ${i};\n  }\n`);
    const root = await workspace({
      'sdk/src/call.ts': `export class Call {\n${methods.join('')}}\n`,
      'web/src/state.tsx': Array.from({ length: 3 }, (_, i) => factory(`f${i}`, 200)).join(''),
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain('packages/sdk/src/call.ts:1: Call is 392 lines');
    expect(out).toContain('packages/web/src/state.tsx: 600 lines (at most 500)');
  });

  it('passes the allow-listed table and facade, tests and shared test suites', async () => {
    const root = await workspace({
      'protocol/src/errors.ts': statements(900),
      'sdk/src/client.ts': `export class Client {\n${statements(600)}}\n`,
      'a/src/big.test.ts': factory('testing', 600),
      'a/src/contract/suite.ts': `import { describe } from 'vitest';\n${factory('suite', 600)}`,
    });
    expect(await check(root)).toEqual({ code: 0, out: '' });
  });
});
