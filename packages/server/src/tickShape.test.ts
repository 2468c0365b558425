import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';

/**
 * Runs `script` (an ES module) in a new Node with V8's natives syntax, through tsx as the other
 * spawned tests do, and parses the JSON line it prints.
 */
async function runWithNatives(script: string): Promise<unknown> {
  const child = spawn(
    process.execPath,
    ['--allow-natives-syntax', '--import', 'tsx', '--input-type=module', '--eval', script],
    {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.test.json' },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  if (code !== 0) throw new Error(`exited ${String(code)}: ${stderr}`);
  return JSON.parse(stdout) as unknown;
}

describe('tickShape', () => {
  it("holds an object with the hidden class of Node's own process.nextTick objects where it can", async () => {
    const module = new URL('./tickShape.ts', import.meta.url).href;
    // A real tick object, caught by an async hook in that process only, compared by V8 itself.
    const result = await runWithNatives(`
      import { createHook } from 'node:async_hooks';
      const { heldTickShape } = await import(${JSON.stringify(module)});
      let tick;
      const hook = createHook({
        init(_id, type, _trigger, resource) {
          if (type === 'TickObject') tick ??= resource;
        },
      }).enable();
      process.nextTick(() => undefined);
      hook.disable();
      console.log(JSON.stringify({
        keys: Reflect.ownKeys(tick).map(String),
        held: heldTickShape !== null,
        sameMap: heldTickShape !== null && %HaveSameMap(tick, heldTickShape),
      }));
    `);
    // Node 20: the two ids, the callback and its arguments; the held object has their map.
    // Node 22 and later add a frame under a symbol no public object carries: nothing is held.
    const twoIds = [
      'callback',
      'args',
      'Symbol(async_id_symbol)',
      'Symbol(trigger_async_id_symbol)',
    ];
    const { keys } = result as { keys: string[] };
    expect(result).toEqual(
      keys.length === twoIds.length
        ? { keys: twoIds, held: true, sameMap: true }
        : { keys: [...twoIds, 'Symbol(kAsyncContextFrame)'], held: false, sameMap: false },
    );
  });
});
