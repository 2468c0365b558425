import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** The repository root: where `tsx` and `tsconfig.test.json` live. */
const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

/**
 * Starts `support/<name>.ts` in a fresh Node process through tsx (with `nodeFlags` before it). The child resolves
 * `@guildhall/protocol` to its sources (tsconfig.test.json), so no build is needed first.
 */
export function spawnSupportScript(
  name: string,
  args: readonly string[],
  nodeFlags: readonly string[] = [],
): ChildProcessWithoutNullStreams {
  const script = fileURLToPath(new URL(`./${name}.ts`, import.meta.url));
  return spawn(process.execPath, [...nodeFlags, '--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, TSX_TSCONFIG_PATH: 'tsconfig.test.json' },
    stdio: 'pipe',
  });
}

/** How a child ended, with everything it printed. */
export interface ChildResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Resolves when the child has exited and its output streams have closed. */
export function collectChild(child: ChildProcessWithoutNullStreams): Promise<ChildResult> {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => {
      resolve({ code, signal, stdout, stderr });
    });
  });
}
