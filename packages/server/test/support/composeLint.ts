/**
 * The lint of deploy/compose.yaml (`docker compose` is not at hand where the tests run): what a
 * compose file of Guildhall's multi-node topology must hold for its processes to start and find
 * each other. {@link composeProblems} lists what is wrong, one sentence each.
 *
 * @module
 */
import { parse } from 'yaml';
import { CONFIG_ENV_NAMES, ConfigError, SERVER_ROLES, loadConfig } from '../../src/config.js';

/** The command every Guildhall service runs: the package's `guildhall` bin, `start`. */
export const GUILDHALL_COMMAND = ['node', 'packages/server/bundle/guildhall.js', 'start'];
/** What every node must agree on (docs/operations.md, Running several nodes). */
const SHARED_SETTINGS = [
  'DATABASE_URL',
  'NATS_URL',
  'REDIS_URL',
  'GUILDHALL_SECRET_KEY',
  'GUILDHALL_DATA_DIR',
  'GUILDHALL_NATS_PREFIX',
  'GUILDHALL_REDIS_PREFIX',
];
/** Where each backing service is named, and the service that must answer there. */
const BACKING = [
  { setting: 'DATABASE_URL', service: 'postgres' },
  { setting: 'NATS_URL', service: 'nats' },
  { setting: 'REDIS_URL', service: 'redis' },
];
/** The gateway's resume window: the history must keep at least that long. */
const RESUME_WINDOW_SECONDS = 300;

interface Service {
  image?: string;
  command?: unknown;
  environment?: Record<string, unknown>;
  depends_on?: string[] | Record<string, unknown>;
  ports?: unknown[];
}

/** Substitutes `${VAR}`, `${VAR:-default}` and `${VAR:?error}` as `docker compose` does. */
export function interpolate(value: string, env: Record<string, string>): string {
  return value.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (...match: string[]) => {
    const [, name = '', kind, arg = ''] = match;
    const set = env[name];
    if (set !== undefined && set !== '') return set;
    if (kind === '-') return arg;
    throw new Error(`${name} is unset: ${arg}`);
  });
}

const dependsOn = (service: Service): string[] =>
  Array.isArray(service.depends_on) ? service.depends_on : Object.keys(service.depends_on ?? {});

/** Host port → container port of a service's `ports`. */
function publishedPorts(service: Service): Map<number, number> {
  const ports = new Map<number, number>();
  for (const entry of service.ports ?? []) {
    const match = /^(?:[\d.]+:)?(\d+):(\d+)$/.exec(String(entry));
    if (match !== null) ports.set(Number(match[1]), Number(match[2]));
  }
  return ports;
}

/** The Guildhall services: each with its environment, interpolated. */
function guildhallServices(services: Record<string, Service>, env: Record<string, string>) {
  return Object.entries(services)
    .filter(([, s]) => JSON.stringify(s.command) === JSON.stringify(GUILDHALL_COMMAND))
    .map(([name, s]) => ({
      name,
      service: s,
      env: Object.fromEntries(
        Object.entries(s.environment ?? {}).map(([k, v]) => [k, interpolate(String(v), env)]),
      ),
    }));
}

/**
 * Everything wrong with a compose file's multi-node topology: its backing services, and for each
 * Guildhall service its command, settings (known, valid, shared where they must be), the services
 * it depends on, and its ports. `env` is what the file's `${…}` variables are given.
 */
export function composeProblems(text: string, env: Record<string, string>): string[] {
  const doc = parse(text, { merge: true }) as { services?: Record<string, Service> };
  const services = doc.services ?? {};
  const problems: string[] = [];
  for (const { service } of BACKING) {
    if (services[service] === undefined) problems.push(`no ${service} service`);
  }
  const natsCommand = services['nats']?.command;
  if (!Array.isArray(natsCommand) || !natsCommand.includes('-js')) {
    problems.push('nats runs without JetStream (-js): the bus history needs it');
  }
  for (const [name, service] of Object.entries(services)) {
    for (const target of dependsOn(service)) {
      if (services[target] === undefined)
        problems.push(`${name} depends on ${target}: no such service`);
    }
  }
  const nodes = guildhallServices(services, env);
  const byRole = (role: string) => nodes.filter((n) => n.env['GUILDHALL_ROLE'] === role).length;
  if (byRole('api') < 2 || byRole('gateway') < 2) {
    problems.push(`want 2 api and 2 gateway nodes, got ${byRole('api')} and ${byRole('gateway')}`);
  }
  const hostPorts = new Map<number, string>();
  for (const node of nodes) {
    problems.push(...nodeProblems(node, { services, nodes, hostPorts, variables: env }));
  }
  return problems;
}

function nodeProblems(
  node: ReturnType<typeof guildhallServices>[number],
  context: {
    services: Record<string, Service>;
    nodes: ReturnType<typeof guildhallServices>;
    hostPorts: Map<number, string>;
    variables: Record<string, string>;
  },
): string[] {
  const { name, service, env } = node;
  const problems: string[] = [];
  for (const key of Object.keys(env)) {
    if (!CONFIG_ENV_NAMES.includes(key)) problems.push(`${name} sets ${key}: not a setting`);
  }
  try {
    const config = loadConfig(env);
    if (!SERVER_ROLES.includes(config.role) || env['GUILDHALL_ROLE'] === undefined) {
      problems.push(`${name} has no role`);
    }
    if (config.natsHistorySeconds < RESUME_WINDOW_SECONDS) {
      problems.push(`${name} keeps the bus history less than the resume window`);
    }
    for (const [host, port] of publishedPorts(service)) {
      if (port !== config.port)
        problems.push(`${name} publishes ${port}, listens on ${config.port}`);
      const other = context.hostPorts.get(host);
      if (other !== undefined) problems.push(`${name} and ${other} both publish ${host}`);
      context.hostPorts.set(host, name);
    }
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    problems.push(`${name}: ${err.message}`);
  }
  for (const { setting, service: backing } of BACKING) {
    const value = env[setting];
    if (value === undefined) {
      problems.push(`${name} does not set ${setting}`);
      continue;
    }
    if (new URL(value).hostname !== backing)
      problems.push(`${name}: ${setting} is not the ${backing} service`);
    if (!dependsOn(service).includes(backing))
      problems.push(`${name} does not depend on ${backing}`);
  }
  problems.push(
    ...databaseProblems(name, env['DATABASE_URL'], {
      postgres: context.services['postgres'],
      variables: context.variables,
    }),
  );
  problems.push(...gatewayUrlProblems(node, context.nodes));
  const first = context.nodes[0];
  for (const setting of SHARED_SETTINGS) {
    if (first !== undefined && env[setting] !== first.env[setting]) {
      problems.push(`${name} and ${first.name} set ${setting} differently`);
    }
  }
  return problems;
}

/** The database URL must carry the user, password and database the postgres service makes. */
function databaseProblems(
  name: string,
  url: string | undefined,
  input: { postgres: Service | undefined; variables: Record<string, string> },
) {
  const { postgres, variables } = input;
  if (url === undefined || postgres === undefined) return [];
  const made = Object.fromEntries(
    Object.entries(postgres.environment ?? {}).map(([k, v]) => [
      k,
      interpolate(String(v), variables),
    ]),
  );
  const parsed = new URL(url);
  const problems: string[] = [];
  if (parsed.username !== String(made['POSTGRES_USER']))
    problems.push(`${name}: not the database user`);
  if (decodeURIComponent(parsed.password) !== String(made['POSTGRES_PASSWORD'])) {
    problems.push(`${name}: not the database password`);
  }
  if (parsed.pathname !== `/${String(made['POSTGRES_DB'])}`)
    problems.push(`${name}: not the database`);
  return problems;
}

/**
 * GUILDHALL_GATEWAY_URL, where clients connect and resume: a published port of a gateway node
 * (on a gateway node, its own).
 */
function gatewayUrlProblems(
  node: ReturnType<typeof guildhallServices>[number],
  nodes: ReturnType<typeof guildhallServices>,
): string[] {
  const url = node.env['GUILDHALL_GATEWAY_URL'];
  if (url === undefined) return [`${node.name} does not set GUILDHALL_GATEWAY_URL`];
  const port = Number(new URL(url).port);
  const targets =
    node.env['GUILDHALL_ROLE'] === 'gateway'
      ? [node]
      : nodes.filter((n) => n.env['GUILDHALL_ROLE'] === 'gateway');
  return targets.some((t) => publishedPorts(t.service).has(port))
    ? []
    : [`${node.name}: GUILDHALL_GATEWAY_URL is not a gateway node's port`];
}
