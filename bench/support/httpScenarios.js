/**
 * bench/http.js's scenarios: the Guildhall children in the run's configuration, and each
 * scenario's servers, probes and targets, measured by runScenario.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { startServer } from './childServer.js';
import { CONFIGURATIONS, VARIANTS } from './httpOptions.js';
import { probe, runScenario } from './httpRuns.js';

/**
 * How a run starts a Guildhall child in its configuration (`settings` change it further), logging
 * into a file of its own in `dataDir`; with a `profileRoot` it writes its profile into a folder of
 * its own there, listed in `profileDirs`. Every server started joins `servers`.
 */
export function guildhallStarter({ options, dataDir, servers, profileRoot, profileDirs }) {
  return async (label, args, settings = {}) => {
    let execArgv = [];
    if (profileRoot !== null) {
      const dir = join(profileRoot, label);
      await mkdir(dir);
      profileDirs.push({ label, dir });
      execArgv = ['--cpu-prof', `--cpu-prof-dir=${dir}`];
    }
    const env = {
      GUILDHALL_BENCH_SETTINGS: JSON.stringify({
        ...CONFIGURATIONS[options.configuration].settings,
        ...(options.logLevel === null ? {} : { GUILDHALL_LOG_LEVEL: options.logLevel }),
        ...settings,
      }),
    };
    const logFile = join(dataDir, `${label}.log`);
    const server = await startServer('guildhallServer.js', args, { execArgv, env, logFile });
    servers.push(server);
    return server;
  };
}

const json = { 'content-type': 'application/json' };
const messageBody = JSON.stringify({ content: 'Benchmark message: hello from autocannon' });
const postMessage = (server, headers) => ({
  url: `${server.apiUrl}/channels/${server.channelId}/messages`,
  method: 'POST',
  headers: { ...headers, ...json },
  body: messageBody,
});

/** The users scenario: Guildhall (and its --compare variants) next to a bare route. */
export async function usersScenario({ options, dataDir, servers, running, startGuildhall }) {
  const guildhall = await startGuildhall('users', [join(dataDir, 'users')]);
  const auth = { authorization: `Bot ${guildhall.botToken}` };
  const request = { url: `${guildhall.apiUrl}/users/@me`, headers: auth };
  const body = await probe(request);
  const variants = [];
  for (const name of options.compare) {
    const variant = VARIANTS[name];
    const server = await startGuildhall(
      `users-${name}`,
      [join(dataDir, `users-${name}`)],
      variant.settings,
    );
    const variantRequest = {
      url: `${server.apiUrl}/users/@me`,
      headers: { authorization: `Bot ${server.botToken}` },
    };
    await probe(variantRequest);
    variants.push({ name: variant.name, server, request: variantRequest });
  }
  const bare = await startServer('bareServer.js', [body]);
  servers.push(bare);
  const bareRequest = { url: `${bare.apiUrl}/users/@me` };
  if ((await probe(bareRequest)) !== body)
    throw new Error('the bare route does not send the same body');
  return runScenario(
    {
      name: 'users',
      endpoint: 'GET /api/v10/users/@me (Authorization: Bot <token>)',
      unit: 'requests',
      targets: [
        { name: 'bare fastify', server: bare, request: bareRequest },
        { name: 'guildhall', server: guildhall, request },
        ...variants,
      ],
    },
    options,
    running,
  );
}

/**
 * The messages scenario: Guildhall on SQLite next to a bare SQLite insert, and with PostgreSQL
 * (unless skipped) next to a bare pg insert.
 */
export async function messagesScenario({ options, dataDir, servers, running, startGuildhall }) {
  const withPostgres = options.postgresUrl !== null;
  // A server of its own: a fresh database, in the run's configuration.
  const onSqlite = await startGuildhall('messages-sqlite', [join(dataDir, 'messages-sqlite')]);
  const request = postMessage(onSqlite, { authorization: `Bot ${onSqlite.botToken}` });
  const created = JSON.parse(await probe(request));
  const setup = JSON.stringify({
    guildId: onSqlite.guildId,
    channelId: onSqlite.channelId,
    authorId: onSqlite.botUserId,
    body: created,
  });
  const bare = await startServer('bareInsertServer.js', [
    'sqlite',
    join(dataDir, 'bare.db'),
    setup,
  ]);
  servers.push(bare);
  const bareRequest = postMessage(bare, {});
  await probe(bareRequest);
  const targets = [
    { name: 'bare sqlite insert', server: bare, request: bareRequest },
    { name: 'guildhall sqlite', server: onSqlite, request },
  ];
  if (withPostgres) {
    const barePg = await startServer('bareInsertServer.js', [
      'postgres',
      options.postgresUrl,
      `bench_bare_${randomBytes(6).toString('hex')}`,
      setup,
    ]);
    servers.push(barePg);
    const barePgRequest = postMessage(barePg, {});
    await probe(barePgRequest);
    const onPostgres = await startGuildhall('messages-postgres', [
      join(dataDir, 'messages-postgres'),
      options.postgresUrl,
    ]);
    const pgRequest = postMessage(onPostgres, {
      authorization: `Bot ${onPostgres.botToken}`,
    });
    await probe(pgRequest);
    targets.push(
      { name: 'bare pg insert', server: barePg, request: barePgRequest, baselines: [] },
      {
        name: 'guildhall postgres',
        server: onPostgres,
        request: pgRequest,
        baselines: ['bare pg insert', 'bare sqlite insert'],
      },
    );
  }
  return runScenario(
    {
      name: 'messages',
      endpoint: 'POST /api/v10/channels/{id}/messages (Authorization: Bot <token>, JSON content)',
      unit: 'creates',
      targets,
    },
    options,
    running,
  );
}
