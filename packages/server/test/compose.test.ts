/**
 * deploy/compose.yaml, linted: `docker compose` is not at hand here, so the file is parsed and
 * checked against the server's own settings (test/support/composeLint.ts): the backing services,
 * two API and two gateway nodes running the built CLI, every setting known and valid, the shared
 * ones equal, each URL naming a service the node depends on, the ports each node listens on.
 *
 * @module
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { GUILDHALL_COMMAND, composeProblems, interpolate } from './support/composeLint.js';

const COMPOSE = fileURLToPath(new URL('../../../deploy/compose.yaml', import.meta.url));
const SERVER_PACKAGE = fileURLToPath(new URL('../package.json', import.meta.url));

/** What an operator exports before `docker compose up` (docs/operations.md). */
const VARIABLES = {
  POSTGRES_PASSWORD: 'a-password',
  GUILDHALL_SECRET_KEY: Buffer.alloc(32, 7).toString('base64'),
};

describe('deploy/compose.yaml', () => {
  let text: string;
  beforeAll(async () => {
    text = await readFile(COMPOSE, 'utf8');
  });

  it('holds the multi-node topology as the server reads its settings', () => {
    expect(composeProblems(text, VARIABLES)).toEqual([]);
  });

  it('runs the package’s own guildhall command', async () => {
    const pkg = JSON.parse(await readFile(SERVER_PACKAGE, 'utf8')) as {
      bin: { guildhall: string };
    };
    expect(`packages/server/${pkg.bin.guildhall.replace(/^\.\//, '')}`).toBe(GUILDHALL_COMMAND[1]);
  });

  it('stops on what an operator must set', () => {
    expect(() =>
      composeProblems(text, { GUILDHALL_SECRET_KEY: VARIABLES.GUILDHALL_SECRET_KEY }),
    ).toThrow('POSTGRES_PASSWORD is unset');
    expect(interpolate('${A:-x}/${B}', { B: 'y' })).toBe('x/y');
  });

  it.each([
    [
      'an unknown setting',
      ['GUILDHALL_ROLE: gateway', 'GUILDHALL_ROLE: gateway\n      GUILDHALL_NOPE: x'],
      'gateway-1 sets GUILDHALL_NOPE: not a setting',
    ],
    [
      'a bad role',
      [
        'GUILDHALL_ROLE: api\n      GUILDHALL_PUBLIC_URL: http://localhost:8081',
        'GUILDHALL_ROLE: apis\n      GUILDHALL_PUBLIC_URL: http://localhost:8081',
      ],
      'api-2: GUILDHALL_ROLE must be one of all, api, gateway',
    ],
    [
      'a missing service',
      ['  redis:\n    image', '  cache:\n    image'],
      'no redis service\napi-1 depends on redis: no such service',
    ],
    [
      'NATS without JetStream',
      ["command: ['-js', '-sd', '/data']", "command: ['-sd', '/data']"],
      'nats runs without JetStream',
    ],
    [
      'a URL to no service',
      ['REDIS_URL: redis://redis:6379', 'REDIS_URL: redis://cache:6379'],
      'api-1: REDIS_URL is not the redis service',
    ],
    [
      'a port it does not listen on',
      ["ports: ['8083:8080']", "ports: ['8083:9090']"],
      'gateway-2 publishes 9090, listens on 8080',
    ],
    [
      'two nodes on one port',
      ["ports: ['8083:8080']", "ports: ['8082:8080']"],
      'gateway-2 and gateway-1 both publish 8082',
    ],
    [
      'too short a history',
      ["GUILDHALL_NATS_HISTORY_SECONDS: '360'", "GUILDHALL_NATS_HISTORY_SECONDS: '60'"],
      'keeps the bus history less than the resume window',
    ],
  ])('finds %s', (_, [from, to], problem) => {
    const broken = text.replace(from ?? '', to ?? '');
    expect(broken).not.toBe(text);
    expect(composeProblems(broken, VARIABLES).join('\n')).toContain(problem);
  });
});
