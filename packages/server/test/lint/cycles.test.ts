import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/cycles.js', import.meta.url));
const run = promisify(execFile);
const roots: string[] = [];

/** A workspace at a new temporary root: `packages/<pkg>/src/<file>` → its text. */
async function workspace(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'guildhall-cycles-'));
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

afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

// Each case is a checker process of its own, mostly loading the compiler and reading files: they
// run side by side.
describe.concurrent('scripts/cycles.js', () => {
  it('reports a cycle held together by a type-only import, and `export … from`', async ({
    expect,
  }) => {
    const root = await workspace({
      'a/src/service.ts':
        "import type { Wire } from './wire.js';\nexport const f = (w: Wire) => w;\n",
      'a/src/wire.ts': "export { f } from './service.js';\nexport interface Wire { id: string }\n",
      'a/src/leaf.ts': "import { f } from './service.js';\nexport const g = f;\n",
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain('cycle 1: 2 files');
    expect(out).toContain(join('packages', 'a', 'src', 'service.ts'));
    expect(out).toContain(join('packages', 'a', 'src', 'wire.ts'));
    expect(out).not.toContain('leaf.ts');
  });

  it('reports a cycle among .tsx files and an `import()` type', async ({ expect }) => {
    const root = await workspace({
      'web/src/Message.tsx':
        "import { Menu } from './Menu.js';\nexport const Message = () => <Menu />;\n",
      'web/src/Menu.tsx':
        "export type Abilities = import('./Message.js').Props;\nexport const Menu = () => null;\n",
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain('Menu.tsx');
    expect(out).toContain('Message.tsx');
  });

  it('passes an acyclic graph, tests left out', async ({ expect }) => {
    const root = await workspace({
      'a/src/service.ts':
        "import type { Wire } from './wire.js';\nexport const f = (w: Wire) => w;\n",
      'a/src/wire.ts': 'export interface Wire { id: string }\n',
      // Tests import freely: a test importing what imports it is no cycle of the sources.
      'a/src/wire.test.ts': "import { f } from './service.js';\nexport const g = f;\n",
    });
    expect(await check(root)).toEqual({ code: 0, out: '' });
  });

  it('finds no cycle in this repository', async ({ expect }) => {
    expect(await check(fileURLToPath(new URL('../../../..', import.meta.url)))).toEqual({
      code: 0,
      out: '',
    });
  }, 60_000);
});
