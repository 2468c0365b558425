import { ApplicationFlags, parsePermissions, PermissionFlags } from '@guildhall/protocol';
import type { AdminCommand } from '../adminCommand.js';
import { createApp, type App } from '../app.js';
import { APP_MODULES } from '../appModules.js';
import { runInRunningServer } from '../control/adminCommands.js';
import { DEFAULT_BLOB_GRACE_MS, sweepOrphanBlobs } from '../blobs/lifecycle.js';
import type { Config } from '../config.js';
import { ZodError } from 'zod';
import { ApiError, fieldErrorTree } from '../errors/index.js';
import { parseInput } from '../http/validate.js';
import { CreateApplicationBody } from '../resources/applications/index.js';
import { RegisterBody } from '../resources/auth/index.js';
import { AddConnectionFlags } from '../resources/connections/index.js';
import { requireFlag, UsageError } from '../cliFlags.js';
import { createLogger } from '../logger.js';
import type { NewChannel } from '../resources/guilds/index.js';
import type { Storage, UserRecord } from '../storage/index.js';
import type { Principal } from '../http/authenticator.js';
import { PRIVILEGED_INTENT_FLAGS } from '../gateway/privileged.js';
import { loginLinkUrls } from '../demo.js';
import { fieldErrorSentences } from './usageErrors.js';
import type { FieldErrorTree } from '@guildhall/protocol';

const ADMIN_PROCESS_ID = 31;

function list(value: string | undefined): string[] {
  return (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The names `--intents` takes, each with the self-serve ("limited") flag that turns it on. */
const INTENT_NAMES: Record<string, bigint> = {
  members: ApplicationFlags.GATEWAY_GUILD_MEMBERS_LIMITED,
  presences: ApplicationFlags.GATEWAY_PRESENCE_LIMITED,
  'message-content': ApplicationFlags.GATEWAY_MESSAGE_CONTENT_LIMITED,
};

/** `members,presences` → the application flags that turn those privileged intents on. */
function parseIntentNames(value: string | undefined): bigint {
  let flags = 0n;
  for (const name of list(value)) {
    const flag = INTENT_NAMES[name.toLowerCase()];
    if (flag === undefined) {
      throw new UsageError(
        `--intents takes ${Object.keys(INTENT_NAMES).join(', ')} (comma-separated), not "${name}".`,
      );
    }
    flags |= flag;
  }
  return flags;
}

/** The operator acting as a person, for a service that checks who owns what. */
function operatorAs(user: UserRecord): Principal {
  return { kind: 'session', user, applicationId: null, scopes: [], tokenHash: '' };
}

/** A person named by id or username (a bot has no login). */
async function findPerson(storage: Storage, idOrName: string) {
  const user =
    (/^\d{1,20}$/.test(idOrName) ? await storage.users.findById(idOrName) : null) ??
    (await storage.users.findByUsername(idOrName.toLowerCase()));
  if (user === null || user.bot) {
    throw new UsageError(
      `no person with id or username ${idOrName}. \`guildhall user create\` makes one.`,
    );
  }
  return user;
}

/** `--password`, or `--password-stdin`, which keeps it out of `ps` and shell history. */
async function passwordFlag(
  flags: Map<string, string>,
  io: { readStdin(): Promise<string> },
  usage: string,
): Promise<string> {
  return flags.has('password-stdin')
    ? (await io.readStdin()).replace(/\r?\n$/, '')
    : requireFlag(flags, 'password', usage);
}

export const ADMIN_COMMANDS: AdminCommand<App['services']>[] = [
  {
    name: 'blobs sweep',
    usage: 'guildhall blobs sweep',
    summary:
      'Remove stored files no row points at (older than an hour) and abandoned uploads; prints counts.',
    async run(app) {
      return sweepOrphanBlobs({
        storage: app.storage,
        blobs: app.blobs,
        nowMs: Date.now(),
        graceMs: DEFAULT_BLOB_GRACE_MS,
      });
    },
  },
  {
    name: 'user create',
    usage:
      'guildhall user create --username NAME --email EMAIL (--password PASSWORD | --password-stdin) [--global-name NAME]',
    summary: 'Create a person account; prints its id and a session token.',
    async run(app, flags, io) {
      const usage = this.usage;
      const globalName = flags.get('global-name');
      const password = await passwordFlag(flags, io, usage);
      const session = await app.services.auth.register(
        parseInput(RegisterBody, {
          username: requireFlag(flags, 'username', usage),
          email: requireFlag(flags, 'email', usage),
          password,
          ...(globalName === undefined ? {} : { global_name: globalName }),
        }),
      );
      return { user_id: session.user_id, user_token: session.token };
    },
  },
  {
    name: 'user login-link',
    usage: 'guildhall user login-link --user USER_ID_OR_USERNAME',
    summary:
      'Make a one-time login link for a person (valid one hour, single use); prints the client and portal URLs.',
    async run(app, flags) {
      const user = await findPerson(app.storage, requireFlag(flags, 'user', this.usage));
      const { code, expiresAt } = await app.services.auth.createLoginLink(user.id);
      return {
        user_id: user.id,
        username: user.username,
        ...loginLinkUrls(app.baseUrl(), code),
        expires_at: new Date(expiresAt).toISOString(),
      };
    },
  },
  {
    name: 'user set-password',
    usage:
      'guildhall user set-password --user USER_ID_OR_USERNAME (--password PASSWORD | --password-stdin)',
    summary:
      "Set a person's password (8 to 72 characters), e.g. the demo developer's, who signs in by links; sessions stay.",
    async run(app, flags, io) {
      const user = await findPerson(app.storage, requireFlag(flags, 'user', this.usage));
      const password = await passwordFlag(flags, io, this.usage);
      await app.services.auth.setPassword(user.id, password);
      return { user_id: user.id, username: user.username, password_set: true };
    },
  },
  {
    name: 'user nsfw-allowed',
    usage: 'guildhall user nsfw-allowed --user USER_ID_OR_USERNAME --value true|false|unknown',
    summary:
      "Set whether a person may see age-restricted content (nsfw_allowed): age-gated activities refuse anyone not 'true'.",
    async run(app, flags) {
      const user = await findPerson(app.storage, requireFlag(flags, 'user', this.usage));
      // Not requireFlag: it reads `true` as a bare switch, and `true` is a value here.
      const value = flags.get('value');
      const allowed =
        value === 'true'
          ? true
          : value === 'false'
            ? false
            : value === 'unknown'
              ? null
              : undefined;
      if (allowed === undefined)
        throw new UsageError(`--value is true, false or unknown.\n${this.usage}`);
      await app.storage.users.setNsfwAllowed(user.id, allowed);
      // Read back: what age-gated activities will see.
      const stored = await app.storage.users.findNsfwAllowed(user.id);
      return { user_id: user.id, username: user.username, nsfw_allowed: stored };
    },
  },
  {
    name: 'app create',
    usage:
      'guildhall app create --owner USER_ID --name NAME [--intents members,presences,message-content]',
    summary:
      'Create an application with its bot; prints the bot token and client secret. --intents turns on privileged intents (the self-serve flags).',
    async run(app, flags) {
      const ownerId = requireFlag(flags, 'owner', this.usage);
      const intents = parseIntentNames(flags.get('intents'));
      const created = await app.services.applications.create(
        ownerId,
        parseInput(CreateApplicationBody, { name: requireFlag(flags, 'name', this.usage) }),
      );
      if (intents !== 0n) {
        const owner = await findPerson(app.storage, ownerId);
        await app.services.applications.modify(operatorAs(owner), created.application.id, {
          flags: Number(intents),
        });
      }
      return {
        application_id: created.application.id,
        bot_user_id: created.bot.id,
        bot_token: created.botToken,
        client_secret: created.clientSecret,
        verify_key: created.application.verifyKey,
        privileged_intents: PRIVILEGED_INTENT_FLAGS.filter((p) => (intents & p.flags) !== 0n).map(
          (p) => p.name,
        ),
      };
    },
  },
  {
    name: 'guild create',
    usage:
      'guildhall guild create --owner USER_ID --name NAME [--text general,random] [--voice General] [--category Info]',
    summary: 'Create a guild with channels, owned by a person; prints the ids.',
    async run(app, flags) {
      const channels: NewChannel[] = [
        ...list(flags.get('category')).map((name) => ({ name, type: 'category' as const })),
        ...list(flags.get('text') ?? 'general').map((name) => ({ name, type: 'text' as const })),
        ...list(flags.get('voice')).map((name) => ({ name, type: 'voice' as const })),
      ];
      const created = await app.services.guilds.create({
        ownerId: requireFlag(flags, 'owner', this.usage),
        name: requireFlag(flags, 'name', this.usage),
        channels,
      });
      return {
        guild_id: created.guild.id,
        channels: created.channels.map((c) => ({ id: c.id, name: c.name, type: c.type })),
      };
    },
  },
  {
    name: 'guild add-bot',
    usage: 'guildhall guild add-bot --guild GUILD_ID --app APPLICATION_ID [--permissions BITS]',
    summary: "Add an application's bot to a guild (default permissions: ADMINISTRATOR).",
    async run(app, flags) {
      const raw = flags.get('permissions');
      let permissions = PermissionFlags.ADMINISTRATOR;
      if (raw !== undefined) {
        try {
          permissions = parsePermissions(raw);
        } catch {
          throw new UsageError(`--permissions must be a decimal permission bitset, got "${raw}".`);
        }
      }
      const member = await app.services.guilds.addBot({
        guildId: requireFlag(flags, 'guild', this.usage),
        applicationId: requireFlag(flags, 'app', this.usage),
        permissions,
      });
      return { guild_id: member.guildId, user_id: member.userId, roles: member.roleIds };
    },
  },
  {
    name: 'search reindex',
    usage: 'guildhall search reindex --guild GUILD_ID',
    summary:
      "Rebuild a guild's message search index; searches answer 202 until a server has built it.",
    async run(app, flags) {
      const guildId = requireFlag(flags, 'guild', this.usage);
      await app.services.messageSearch.reindex(guildId);
      return { guild_id: guildId, search_index: 'rebuilding' };
    },
  },
  {
    name: 'user connection add',
    usage:
      'guildhall user connection add --user USER_ID --type TYPE --id ACCOUNT_ID [--name NAME] [--verified] [--friend-sync] [--no-show-activity] [--two-way-link] [--revoked] [--visibility 0|1] [--publisher-kind A|B|none] [--application-identity]',
    summary:
      'Add a connected account (github, steam, riotgames, ...) to a person; GET /users/@me/connections lists it.',
    async run(app, flags) {
      requireFlag(flags, 'user', this.usage);
      requireFlag(flags, 'type', this.usage);
      requireFlag(flags, 'id', this.usage);
      return app.services.connections.add(
        parseInput(AddConnectionFlags, Object.fromEntries(flags)),
      );
    },
  },
  // The commands the modules bring (provisional accounts, OAuth2, social limits, monetization).
  ...APP_MODULES.commands,
];

/** Runs an admin command against the configured database and returns what it prints. */
export async function runAdminCommand(run: {
  command: AdminCommand<App['services']>;
  config: Config;
  flags: Map<string, string>;
  io: { readStdin(): Promise<string> };
}) {
  const { command, config, flags, io } = run;
  // A server running on this data folder runs the command itself: its sessions see the change.
  const remote = await runInRunningServer(config, {
    command: command.name,
    flags,
    ...([...flags.keys()].some((name) => name.endsWith('-stdin'))
      ? { stdin: await io.readStdin() }
      : {}),
  });
  if (remote !== null) {
    if (remote.ran) return remote.result;
    if (remote.usage) throw new UsageError(remote.message);
    const tree = remote.errors as FieldErrorTree | undefined;
    const detail = tree === undefined ? [] : fieldErrorSentences(tree);
    throw new UsageError([`${remote.message} (code ${String(remote.code)}).`, ...detail].join(' '));
  }
  const app = await createApp(
    { ...config, logLevel: 'silent' },
    {
      logger: createLogger('silent'),
      // A process id servers never use, so ids made here never collide with a running server's.
      processId: ADMIN_PROCESS_ID,
      // A one-shot command leaves background jobs to the servers.
      resumeJobs: false,
      overrides: { blobSweep: false, lobbySweep: false },
    },
  );
  try {
    return await command.run(app, flags, io);
  } catch (err) {
    if (err instanceof ZodError) {
      throw new UsageError(fieldErrorSentences(fieldErrorTree(err.issues)).join(' '));
    }
    if (err instanceof ApiError) {
      const detail = err.errors === undefined ? [] : fieldErrorSentences(err.errors);
      throw new UsageError([`${err.message} (code ${err.code}).`, ...detail].join(' '));
    }
    throw err;
  } finally {
    await app.close();
  }
}
