/**
 * `guildhall status`: what the start banner said, again, for a server running on this data
 * folder: its URLs, the demo's ids and bot token, and a fresh one-time login link (made by the
 * running server itself, through its controls).
 */
import { join } from 'node:path';
import type { Config } from '../config.js';
import { runInRunningServer } from '../control/adminCommands.js';
import { processAlive, readRunFile } from '../control/runFile.js';
import { SIGN_IN_NOTE, readDemoFile } from '../demo.js';

export const STATUS_USAGE = 'guildhall status';
export const STATUS_SUMMARY =
  "Print the running server's URLs, the demo's ids and bot token, and a fresh login link.";

/** Why there is nothing to report, as one line saying what to do. */
export class NotRunningError extends Error {
  override readonly name = 'NotRunningError';
}

/** The lines `guildhall status` prints. @throws NotRunningError when no server runs there. */
export async function statusLines(config: Pick<Config, 'dataDir' | 'databaseUrl'>) {
  const run = await readRunFile(config.dataDir);
  if (run === null || !processAlive(run.pid)) {
    throw new NotRunningError(
      `no guildhall is running on ${config.dataDir} (no live ${join(config.dataDir, 'control.json')}). Start one with \`npm start\` (or \`guildhall start --data-dir ${config.dataDir}\`).`,
    );
  }
  const lines = [
    `Guildhall is running (process ${String(run.pid)}) on ${config.dataDir}.`,
    `  Web client:       ${run.url}/`,
    `  Portal:           ${run.url}/developers/applications`,
    `  API:              ${run.url}/api/v10`,
  ];
  const demo = await readDemoFile(join(config.dataDir, 'demo.json'));
  if (demo === null)
    return [...lines, '  (no demo.json: this server was started without the demo)'];
  lines.push(
    `  Gateway:          ${demo.gateway_url}`,
    `  Bot token:        ${demo.bot_token}`,
    `  Application:      ${demo.application_id}`,
    `  Guild:            ${demo.guild_id} (channel ${demo.channel_id})`,
  );
  const link = await runInRunningServer(config, {
    command: 'user login-link',
    flags: new Map([['user', demo.user_id]]),
  });
  if (link?.ran === true) {
    const urls = link.result as { client_url?: string };
    if (typeof urls.client_url === 'string') {
      lines.push(`  Sign in:          ${urls.client_url}`, `                    ${SIGN_IN_NOTE}`);
    }
  }
  lines.push(`  Everything above, for scripts: ${join(config.dataDir, 'demo.json')}`);
  return lines;
}
