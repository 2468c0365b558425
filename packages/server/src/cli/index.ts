/** @module cli: the `guildhall` command. */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { createApp, type App } from '../app.js';
import { CONFIG_HELP, ConfigError, OPERATOR_HELP, loadConfig, roleServes } from '../config.js';
import { demoBanner, ensureDemo, tlsLines, voiceLines, type VoiceBannerInfo } from '../demo.js';
import { UsageError, requireFlag } from '../cliFlags.js';
import { WorldError } from '../control/worldFile.js';
import { parseCommandArgs } from './args.js';
import { checkRole, listenFailure, runningLine } from './startup.js';
import { readWorldToStart, startWithWorld, worldBanner } from './worldStart.js';
import { NotRunningError, STATUS_SUMMARY, STATUS_USAGE, statusLines } from './statusCommand.js';
import {
  BACKUP_SUMMARY,
  BACKUP_USAGE,
  RESTORE_SUMMARY,
  RESTORE_USAGE,
  backupHelp,
  restoreHelp,
  runBackup,
  runRestore,
} from './backupCommand.js';
import { ADMIN_COMMANDS, runAdminCommand } from './commands.js';
import { RPC_SUMMARY, RPC_USAGE, rpcHelp } from './rpcUsage.js';
import {
  SECRETS_ROTATE_SUMMARY,
  SECRETS_ROTATE_USAGE,
  runSecretsRotate,
  secretsRotateHelp,
} from './secretsCommand.js';
import type { Ask } from '../rpc/consent.js';
import type { RunningRpc } from '../rpc/index.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM). */
  stopSignal: Promise<string>;
  /** All of standard input, for secrets that should not be flags. */
  readStdin(): Promise<string>;
  /** Asks a question on the terminal (RPC consent); absent when standard input is not one. */
  ask?: Ask | undefined;
  /** Whether standard output is a terminal (log lines are then pretty: --log-format auto). */
  isTerminal?: boolean;
}

const START_USAGE = 'guildhall start [options] [--world FILE] [--rpc] [--rpc-consent MODE]';
/** The flags of `start` that are not settings (config.ts): a world, and the RPC daemon. */
const START_FLAGS = ['world', 'rpc', 'rpc-consent'];

function mainHelp(): string {
  return [
    'guildhall: a local platform for bots, activities and games.',
    '',
    'Commands:',
    `  ${'start'.padEnd(16)} Run the platform (HTTP API) on 127.0.0.1:8080 with SQLite in ./data.`,
    `  ${'status'.padEnd(16)} ${STATUS_SUMMARY}`,
    `  ${'rpc'.padEnd(16)} ${RPC_SUMMARY}`,
    ...ADMIN_COMMANDS.map((c) => `  ${c.name.padEnd(16)} ${c.summary}`),
    `  ${'secrets rotate'.padEnd(16)} ${SECRETS_ROTATE_SUMMARY}`,
    `  ${'backup'.padEnd(16)} ${BACKUP_SUMMARY}`,
    `  ${'restore'.padEnd(16)} ${RESTORE_SUMMARY}`,
    '',
    'Run `guildhall <command> --help` for its options. Every command reads the same settings:',
    ...CONFIG_HELP,
  ].join('\n');
}

function startHelp(): string {
  return [
    `Usage: ${START_USAGE}`,
    '',
    'Starts the platform. On an empty data folder it makes a demo developer, application, bot',
    'and guild, prints the bot token, and writes them all to <data-dir>/demo.json (mode 0600).',
    'It serves the web client at / and the developer portal at /developers (from --web-dir),',
    'and prints a one-time link that logs the portal in as the demo developer.',
    '',
    'Options (a flag wins over its environment variable):',
    ...CONFIG_HELP,
    '',
    'Worlds (docs/worlds.md):',
    '  --world FILE            Load the world FILE (JSON or YAML: people, guilds, applications…)',
    '                          instead of the demo, and write its ids and tokens by name to',
    '                          <data-dir>/world.json (mode 0600). A later start of the same data',
    '                          folder reuses it. Example: --world packages/server/worlds/demo.json',
    '',
    'RPC (docs/rpc.md):',
    '  --rpc                   Also serve RPC clients on a discord-ipc-N socket as the demo',
    '                          developer (as `guildhall rpc` does for any person).',
    '  --rpc-consent MODE      prompt (the default on a terminal), allow or deny: how an',
    "                          app's AUTHORIZE is answered (`guildhall rpc --help`).",
  ].join('\n');
}

/**
 * What the banner says of the app's voice node, if it runs one (its certificate is read, or
 * made, for it: the banner names the file clients trust).
 */
async function voiceBanner(app: App): Promise<VoiceBannerInfo | null> {
  if (app.voice === null) return null;
  const tls = await app.voice.tls();
  return {
    endpoint: app.voice.endpoint(),
    developmentCertificate: tls.development ? tls.certPath : null,
  };
}

/**
 * Waits for the log lines written so far (they go out in batches): the banner that follows is
 * then the last thing on screen, not buried under a start-up line written a moment after it.
 */
function logsWritten(app: App): Promise<void> {
  return new Promise((resolve) => {
    app.logger.flush(() => {
      resolve();
    });
  });
}

/** The API's development certificate file, when it serves one (`--tls dev`). */
function devCertificate(app: App): string | null {
  const tls = app.tls();
  return tls?.development === true ? tls.certPath : null;
}

/** `guildhall start`: the settings' flags, `--world`, and `rpc` when `--rpc` was given. */
interface StartRequest {
  argv: readonly string[];
  world: string | null;
  rpc: { consent: string | undefined } | null;
}

async function start(request: StartRequest, env: Record<string, string | undefined>, io: CliIo) {
  const { argv, rpc, world } = request;
  const loaded = loadConfig(env, argv);
  const config = {
    ...loaded,
    logFormat:
      loaded.logFormat === 'auto' ? (io.isTerminal === true ? 'pretty' : 'json') : loaded.logFormat,
  } as const;
  const toLoad = world === null ? null : await readWorldToStart(world);
  if (rpc !== null && (!config.demo || world !== null || !roleServes(config.role, 'api'))) {
    throw new UsageError(
      '--rpc runs as the demo developer: it needs the demo (--demo on, no --world) and the API (--role all or api). For another person, run `guildhall rpc`.',
    );
  }
  checkRole(config);
  let running: RunningRpc | null = null;
  // demo.json and uploaded files live here whichever database runs.
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  // Operator commands run on this data folder reach this server (control/runFile.ts).
  const app = await createApp(config, { adminCommands: ADMIN_COMMANDS });
  try {
    await app.listen().catch((err: unknown) => {
      throw listenFailure(err);
    });
    if (toLoad !== null) {
      const loaded = await startWithWorld(app, toLoad);
      await logsWritten(app);
      io.stdout(worldBanner(app, loaded));
    } else if (config.demo && roleServes(config.role, 'api')) {
      // The demo is made and announced where its API is served (an API or all-in-one process).
      const { demo, created, privilegedIntents } = await ensureDemo(app);
      // A fresh one-time link each start (pages are served where the API is).
      const web = {
        baseUrl: app.baseUrl(),
        loginCode: (await app.services.auth.createLoginLink(demo.user_id)).code,
      };
      const voice = await voiceBanner(app);
      await logsWritten(app);
      io.stdout(
        demoBanner(demo, join(config.dataDir, 'demo.json'), {
          privilegedIntents,
          web,
          voice,
          tlsCertificate: devCertificate(app),
        }),
      );
      if (!created) io.stdout('  (reusing the demo from an earlier start)\n');
      if (rpc !== null) {
        const run = { apiBase: app.apiUrl(), userToken: demo.user_token, consent: rpc.consent };
        const { startDemoRpc } = await import('./rpcCommand.js');
        running = await startDemoRpc(run, env, io);
      }
    } else {
      const urls = { base: app.baseUrl(), api: app.apiUrl(), gateway: app.gatewayUrl() };
      const voice = [...tlsLines(devCertificate(app)), ...voiceLines(await voiceBanner(app))].map(
        (line) => `${line.trim()}\n`,
      );
      await logsWritten(app);
      io.stdout(`${runningLine(config.role, urls)}\n${voice.join('')}`);
    }
  } catch (err) {
    await app.close();
    throw err;
  }
  const signal = await io.stopSignal;
  app.logger.info({ signal }, 'shutting down');
  await running?.close();
  await app.close();
}

/** Every command's name and summary, for the lists the help prints. */
function allCommands(): { name: string; summary: string }[] {
  return [
    { name: 'rpc', summary: RPC_SUMMARY },
    ...ADMIN_COMMANDS,
    { name: 'secrets rotate', summary: SECRETS_ROTATE_SUMMARY },
  ];
}

/** The commands whose name starts with these words (`user` → `user create`, `user ban`, …). */
function groupCommands(words: readonly string[]): { name: string; summary: string }[] {
  const prefix = `${words.join(' ')} `;
  return words.length === 0 ? [] : allCommands().filter((c) => c.name.startsWith(prefix));
}

function groupHelp(group: string, commands: readonly { name: string; summary: string }[]) {
  const width = Math.max(...commands.map((c) => c.name.length)) + 2;
  return [
    `guildhall ${group}: ${commands.length} commands.`,
    '',
    ...commands.map((c) => `  guildhall ${c.name.padEnd(width)} ${c.summary}`),
    '',
    `Run \`guildhall ${group} <command> --help\` for a command's options.`,
  ].join('\n');
}

/** How many leading arguments are words of the command (`user connection add`), not flags. */
function commandWordCount(argv: readonly string[]): number {
  const first = argv.findIndex((arg) => arg.startsWith('-'));
  return first === -1 ? argv.length : first;
}

/** The flags as `--name=value`, which loadConfig reads the same way whatever the original form. */
function normalised(flags: Map<string, string>): string[] {
  return [...flags].map(([name, value]) => `--${name}=${value}`);
}

/**
 * Runs the CLI; resolves to the process exit code: 0, 2 for a usage mistake (one line on
 * stderr: an unknown command or flag, a flag without its value, a stray word), 1 for a failure.
 */
export async function runCli(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  io: CliIo,
): Promise<number> {
  const words = argv.slice(0, commandWordCount(argv));
  try {
    if (words.length === 0 || words[0] === 'help') {
      const wantsHelp = words[0] === 'help' || argv.includes('--help');
      io.stdout(`${mainHelp()}\n`);
      return wantsHelp ? 0 : 2;
    }
    if (words[0] === 'start') {
      const flags = parseCommandArgs('start', argv.slice(1), START_USAGE);
      if (flags.get('help') === 'true') {
        io.stdout(`${startHelp()}\n`);
        return 0;
      }
      const rpc = flags.get('rpc') === 'true' ? { consent: flags.get('rpc-consent') } : null;
      if (rpc === null && flags.has('rpc-consent')) {
        throw new UsageError('--rpc-consent goes with --rpc.');
      }
      const world = flags.get('world') ?? null;
      for (const name of START_FLAGS) flags.delete(name);
      await start({ argv: normalised(flags), rpc, world }, env, io);
      return 0;
    }
    if (words[0] === 'rpc' && words.length === 1) {
      const flags = parseCommandArgs('rpc', argv.slice(1), RPC_USAGE);
      if (flags.get('help') === 'true') {
        io.stdout(`${rpcHelp()}\n`);
        return 0;
      }
      const { runRpcCommand } = await import('./rpcCommand.js');
      return await runRpcCommand(flags, env, io);
    }
    if (words[0] === 'status' && words.length === 1) {
      const flags = parseCommandArgs('status', argv.slice(1), STATUS_USAGE);
      if (flags.get('help') === 'true') {
        io.stdout(
          `Usage: ${STATUS_USAGE}\n\n${STATUS_SUMMARY}\n\nWhere the data is:\n${OPERATOR_HELP.join('\n')}\n`,
        );
        return 0;
      }
      try {
        const lines = await statusLines(loadConfig(env, normalised(flags)));
        io.stdout(`${lines.join('\n')}\n`);
        return 0;
      } catch (err) {
        if (!(err instanceof NotRunningError)) throw err;
        io.stderr(`guildhall status: ${err.message}\n`);
        return 1;
      }
    }
    if (words[0] === 'secrets' && words[1] === 'rotate' && words.length === 2) {
      const flags = parseCommandArgs('secrets rotate', argv.slice(2), SECRETS_ROTATE_USAGE);
      if (flags.get('help') === 'true') {
        io.stdout(`${secretsRotateHelp(OPERATOR_HELP)}\n`);
        return 0;
      }
      const stage = flags.get('stage') === 'true';
      flags.delete('stage');
      return await runSecretsRotate(loadConfig(env, normalised(flags)), { stage }, io);
    }
    if ((words[0] === 'backup' || words[0] === 'restore') && words.length === 1) {
      const backup = words[0] === 'backup';
      const usage = backup ? BACKUP_USAGE : RESTORE_USAGE;
      const flags = parseCommandArgs(words[0], argv.slice(1), usage);
      if (flags.get('help') === 'true') {
        io.stdout(`${(backup ? backupHelp : restoreHelp)(OPERATOR_HELP)}\n`);
        return 0;
      }
      const file = requireFlag(flags, backup ? 'to' : 'from', usage);
      flags.delete(backup ? 'to' : 'from');
      const config = loadConfig(env, normalised(flags));
      io.stdout(`${await (backup ? runBackup : runRestore)(config, file)}\n`);
      return 0;
    }
    // Names have two words (`user create`) or three (`user connection add`).
    const command = ADMIN_COMMANDS.find(
      (c) => c.name === words.slice(0, c.name.split(' ').length).join(' '),
    );
    const group = groupCommands(words);
    if (command === undefined && group.length > 0) {
      // `guildhall user --help` (or just `guildhall user`): the group's commands.
      const help = `${groupHelp(words.join(' '), group)}\n`;
      if (argv.includes('--help')) {
        io.stdout(help);
        return 0;
      }
      io.stderr(help);
      return 2;
    }
    if (command === undefined) {
      io.stderr(
        `guildhall: unknown command "${words.join(' ')}". Run \`guildhall --help\` for the list.\n`,
      );
      return 2;
    }
    const flags = parseCommandArgs(
      command.name,
      argv.slice(command.name.split(' ').length),
      command.usage,
    );
    if (flags.get('help') === 'true') {
      io.stdout(
        `Usage: ${command.usage}\n\n${command.summary}\n\nWhere the data is (a flag wins over its environment variable):\n${OPERATOR_HELP.join('\n')}\n`,
      );
      return 0;
    }
    const config = loadConfig(env, normalised(flags));
    const result = await runAdminCommand({ command, config, flags, io });
    io.stdout(`${JSON.stringify(result, null, 2)}\n`);
    return 0;
  } catch (err) {
    if (err instanceof ConfigError || err instanceof UsageError || err instanceof WorldError) {
      io.stderr(`guildhall: ${err.message}\n`);
      return 2;
    }
    if (err instanceof Error && err.name === 'BackupError') {
      io.stderr(`guildhall ${words[0] ?? ''}: ${err.message}\n`);
      return 1;
    }
    // rpc/run.ts's RpcStartError (the module is loaded only for RPC).
    if (err instanceof Error && err.name === 'RpcStartError') {
      io.stderr(`guildhall rpc: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
