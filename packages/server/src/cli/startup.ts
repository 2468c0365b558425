/**
 * What `guildhall start` checks before it serves and says once it does: a split role needs a
 * shared bus, a port already taken is one line, and the running line names only what this
 * process serves.
 */
import { ConfigError, roleServes, type Config } from '../config.js';

const ROLE_NAMES = { api: 'the API', gateway: 'a gateway', voice: 'a voice node' } as const;

/**
 * Refuses a split role without NATS: an API node alone would announce events nobody hears, a
 * gateway node would hear nothing.
 * @throws ConfigError saying what to set.
 */
export function checkRole(config: Pick<Config, 'role' | 'natsUrl'>): void {
  if (config.role === 'all' || config.natsUrl !== null) return;
  throw new ConfigError(
    `--role ${config.role} serves only ${ROLE_NAMES[config.role]} and needs NATS shared with the other nodes: set NATS_URL (--nats-url), or leave --role at all to serve everything from this process.`,
  );
}

/**
 * The one line for a listen that failed (a port in use, a port that needs privileges, an
 * address not on this machine), or the error itself when it is something else.
 */
export function listenFailure(err: unknown): unknown {
  if (typeof err !== 'object' || err === null) return err;
  const { code, address, port } = err as { code?: unknown; address?: unknown; port?: unknown };
  const where = `${String(address)}:${String(port)}`;
  switch (code) {
    case 'EADDRINUSE':
      return new ConfigError(
        `${where} is already in use (another guildhall? \`guildhall status\` tells). Stop it, or choose another port with --port (GUILDHALL_PORT); then start again.`,
        { cause: err },
      );
    case 'EACCES':
      return new ConfigError(
        `not allowed to listen on ${where} (ports below 1024 need privileges). Choose --port 1024 or above; then start again.`,
        { cause: err },
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `${String(address)} is not an address of this machine. Correct --host (GUILDHALL_HOST); then start again.`,
        { cause: err },
      );
    default:
      return err;
  }
}

export interface RunningUrls {
  /** The web pages' base URL. */
  base: string;
  api: string;
  gateway: string;
}

/**
 * The line `start` prints when it serves without the demo: what this process serves and where.
 * Tests and benches read `API: URL` and `Gateway: URL` from it.
 */
export function runningLine(role: Config['role'], urls: RunningUrls): string {
  const serves = role === 'all' ? '' : ` as ${ROLE_NAMES[role]}`;
  const parts: string[] = [];
  if (roleServes(role, 'api')) parts.push(`Web client: ${urls.base}/`, `API: ${urls.api}`);
  if (roleServes(role, 'gateway')) parts.push(`Gateway: ${urls.gateway}`);
  else if (role === 'api') parts.push(`(clients are sent to the gateway at ${urls.gateway})`);
  return `Guildhall is running${serves}.${parts.map((p) => ` ${p}`).join('')}`;
}
