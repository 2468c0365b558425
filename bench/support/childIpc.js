/**
 * The IPC side of a benchmark server child: reports `{ type: 'ready', ...info }`, answers
 * `{ type: 'cpu' }` with the process's CPU time so far, and closes on `{ type: 'stop' }` with a
 * clean exit (which lets `--cpu-prof` write its profile). Exits if the parent goes away.
 */
import process from 'node:process';

/**
 * @param {Record<string, unknown>} info what the parent needs (URL, token)
 * @param {() => Promise<void>} close closes the server
 */
export function serveParent(info, close) {
  process.on('disconnect', () => process.exit(1));
  process.on('message', (message) => {
    if (message?.type === 'cpu') {
      process.send({ type: 'cpu', usage: process.cpuUsage() });
    } else if (message?.type === 'stop') {
      close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    }
  });
  process.send({ type: 'ready', ...info });
}
