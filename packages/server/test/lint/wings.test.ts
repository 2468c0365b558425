import { execFile } from 'node:child_process';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/wings.js', import.meta.url));
/** The folder the refusals name (kept apart so that the wings codemod leaves these paths be). */
const RES = 'packages/server/src/resources';
const run = promisify(execFile);
const roots: string[] = [];

/** A server at a new temporary root: `resources/<path>` → its text. */
async function server(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'guildhall-wings-'));
  roots.push(root);
  for (const [path, text] of Object.entries(files)) {
    const file = join(root, 'packages/server/src/resources', path);
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
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

const uses = (specifier: string, name = 'x') =>
  `import { ${name} } from '${specifier}';\nexport const ${name}2 = ${name};\n`;
const INDEX = 'export const x = 1;\n';

afterAll(async () => {
  await Promise.all(roots.map((root) => rm(root, { recursive: true, force: true })));
});

describe('scripts/wings.js', () => {
  it('refuses an import up the wings, in the winged layout', async () => {
    const root = await server({
      'kernel/users/index.ts': INDEX,
      'messaging/messages/index.ts': INDEX,
      'messaging/threads/index.ts': INDEX,
      'apps/monetization/index.ts': INDEX,
      // Down a wing and within one: allowed.
      'messaging/threads/service.ts':
        uses('../messages/index.js') + uses('../../kernel/users/index.js', 'z'),
      // Up: messaging may not import apps.
      'messaging/messages/create.ts': uses('../../apps/monetization/index.js'),
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain(
      `${RES}/messaging/messages/create.ts: messages (messaging) imports monetization (apps)`,
    );
    expect(out).not.toContain('threads/service.ts');
    expect(out).toContain('1 refused');
  });

  it('refuses it in the flat layout too, and a floor file importing a resource', async () => {
    const root = await server({
      'channels/index.ts': INDEX,
      'messages/index.ts': INDEX,
      'channels/service.ts': uses('../messages/index.js'),
      'messages/service.ts': uses('../channels/index.js'),
      'dispatches.ts': uses('./channels/index.js'),
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain(
      `${RES}/channels/service.ts: channels (guild) imports messages (messaging)`,
    );
    expect(out).toContain(`${RES}/dispatches.ts: the floor of resources/ imports channels (guild)`);
    expect(out).not.toContain('messages/service.ts');
  });

  it('refuses a resource without a wing, and one outside its wing once wings exist', async () => {
    const root = await server({
      'kernel/users/index.ts': INDEX,
      'apps/messages/index.ts': INDEX,
      'threads/index.ts': INDEX,
      'kernel/gadgets/index.ts': INDEX,
    });
    const { code, out } = await check(root);
    expect(code).toBe(1);
    expect(out).toContain(`${RES}/apps/messages: belongs in the messaging wing`);
    expect(out).toContain(`${RES}/threads: belongs in the messaging wing`);
    expect(out).toContain(`${RES}/kernel/gadgets: a resource without a wing`);
    expect(out).not.toContain('kernel/users');
  });

  it('passes this repository', async () => {
    expect(await check(fileURLToPath(new URL('../../../..', import.meta.url)))).toEqual({
      code: 0,
      out: '',
    });
  }, 60_000);
});
