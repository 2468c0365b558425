/**
 * Starting a benchmark's server children (bench/support/*Server.js, speaking childIpc.js) and
 * talking to them: their ready message, CPU time, settling, stop and kill.
 */
import { fork } from 'node:child_process';
import { closeSync, openSync, statSync } from 'node:fs';
import process from 'node:process';
import { clearTimeout, setTimeout } from 'node:timers';
import { URL, fileURLToPath } from 'node:url';

/** How long a child may take to report ready. */
export const SERVER_START_TIMEOUT_MS = 30_000;
const SERVER_STOP_TIMEOUT_MS = 5_000;
const supportFile = (name) => fileURLToPath(new URL(`./${name}`, import.meta.url));

/**
 * A forked server child (see support/childIpc.js): its ready message, CPU time, stop and kill.
 * `logFile`, when given, receives the child's standard output, and `env` is added to its
 * environment.
 */
export async function startServer(name, args, { execArgv = [], env = {}, logFile = null } = {}) {
  const stdout = logFile === null ? 'inherit' : openSync(logFile, 'a');
  let child;
  try {
    child = fork(supportFile(name), args, {
      execArgv,
      env: { ...process.env, ...env },
      stdio: ['ignore', stdout, 'inherit', 'ipc'],
    });
  } finally {
    // The child holds its own copy of the descriptor.
    if (typeof stdout === 'number') closeSync(stdout);
  }
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const failed = new Promise((_resolve, reject) => {
    child.once('error', reject);
    void exited.then((code) => reject(new Error(`${name} exited with ${code}`)));
  });
  // Only ever raced against an answer below; an exit after the last question is expected.
  failed.catch(() => undefined);
  const nextMessage = (type, timeoutMs) => {
    let timer;
    let onMessage;
    const answer = new Promise((resolve, reject) => {
      timer = setTimeout(
        () => reject(new Error(`${name} sent no "${type}" message in ${timeoutMs} ms`)),
        timeoutMs,
      );
      onMessage = (message) => {
        if (message?.type === type) resolve(message);
      };
      child.on('message', onMessage);
    });
    return Promise.race([answer, failed]).finally(() => {
      clearTimeout(timer);
      child.off('message', onMessage);
    });
  };
  const ready = await nextMessage('ready', SERVER_START_TIMEOUT_MS).catch((err) => {
    child.kill('SIGKILL');
    throw err;
  });
  return {
    ...ready,
    /** How many bytes the child has written to its log file so far (null without one). */
    logBytes: () => (logFile === null ? null : statSync(logFile).size),
    /** The child's CPU time so far (user + system), in microseconds. */
    async cpuMicros() {
      const answer = nextMessage('cpu', 5000);
      child.send({ type: 'cpu' });
      const { usage } = await answer;
      return usage.user + usage.system;
    },
    /**
     * Waits (at most 10 s) until the child is idle: less than 2 ms of CPU in 100 ms, so the next
     * target does not share the machine with this one's leftover requests.
     */
    async settle() {
      for (let i = 0; i < 100; i += 1) {
        const before = await this.cpuMicros();
        await new Promise((resolve) => setTimeout(resolve, 100));
        if ((await this.cpuMicros()) - before < 2000) return;
      }
    },
    /** Asks for a clean exit (which writes a CPU profile), then kills after a grace period. */
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      if (child.connected) child.send({ type: 'stop' });
      const timer = setTimeout(() => child.kill('SIGKILL'), SERVER_STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    },
    kill: () => child.kill('SIGKILL'),
  };
}
