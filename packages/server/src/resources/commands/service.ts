import { compareSnowflakes, isSnowflake } from '@guildhall/protocol';
import { ApiError, invalidField } from '../../errors/index.js';
import type { Principal } from '../../http/authenticator.js';
import { parseInput } from '../../http/validate.js';
import type { ApplicationCommandRecord, Repositories } from '../../storage/index.js';
import type { ServiceDeps } from '../deps.js';
import {
  COMMAND_SCOPES,
  requireApplication,
  requireInstalledGuild,
  requireOwner,
} from './access.js';
import {
  commandContent,
  contentOf,
  mergedBody,
  sameContent,
  type CommandContent,
} from './content.js';
import { COMMAND_LIMITS as L, CommandType } from './limits.js';
import { createCommandPermissionOperations } from './permissions.js';
import {
  CreateCommandBody,
  type BulkCommandInput,
  type CreateCommandInput,
  type EditCommandInput,
} from './schemas.js';
import { serializeCommand, type LocalizationView } from './serialize.js';

/** Which commands a route works on: the application's global ones, or those of one guild. */
export interface CommandScope {
  applicationId: string;
  /** Null for the global commands. */
  guildId: string | null;
}

/** The most commands of each type one scope may hold. */
function limitOf(type: number): number {
  if (type === CommandType.CHAT_INPUT) return L.maxChatInput;
  if (type === CommandType.PRIMARY_ENTRY_POINT) return L.maxEntryPoint;
  return L.maxContextMenu;
}

/** 30032 when a scope's set of commands holds more of a type than the platform allows. */
function checkLimits(commands: readonly Pick<CommandContent, 'type'>[]): void {
  const counts = new Map<number, number>();
  for (const { type } of commands) counts.set(type, (counts.get(type) ?? 0) + 1);
  for (const [type, count] of counts) {
    if (count > limitOf(type)) throw new ApiError('MAX_APPLICATION_COMMANDS');
  }
}

/** Entry point commands are global (50035 on `type` in a guild). */
function checkEntryPointScope(scope: CommandScope, type: number, path: (string | number)[]) {
  if (scope.guildId !== null && type === CommandType.PRIMARY_ENTRY_POINT) {
    throw invalidField(path, 'BASE_TYPE_CHOICES', 'Entry point commands can only be global.');
  }
}

const sameName = (
  a: Pick<CommandContent, 'name' | 'type'>,
  b: Pick<CommandContent, 'name' | 'type'>,
) => a.type === b.type && a.name === b.name;

/**
 * The 12 command operations of an application, global and per guild (docs/commands.md), and
 * the 3 of their guild permissions (`permissions`). Every write locks the application's row,
 * so names and counts are checked against a set no other write changes meanwhile.
 */
export function createCommandService(deps: ServiceDeps) {
  const { storage, clock, ids } = deps;

  /** Checks the caller and the scope; returns the scope with the guild id as stored. */
  const enter = async (
    repos: Repositories,
    principal: Principal,
    scope: CommandScope,
  ): Promise<CommandScope> => {
    // A session reaches only the routes that take one (list, get, delete), and only its own app.
    if (principal.kind === 'session') await requireOwner(repos, principal, scope.applicationId);
    else
      await requireApplication(repos, principal, {
        applicationId: scope.applicationId,
        scope: COMMAND_SCOPES.update,
      });
    if (scope.guildId === null) return scope;
    const guildId = await requireInstalledGuild(repos, scope.applicationId, scope.guildId);
    return { applicationId: scope.applicationId, guildId };
  };

  const findIn = async (repos: Repositories, scope: CommandScope, commandId: string) => {
    const command = isSnowflake(commandId)
      ? await repos.commands.findById(scope.applicationId, commandId)
      : null;
    if (command?.guildId !== scope.guildId) {
      throw new ApiError('UNKNOWN_APPLICATION_COMMAND');
    }
    return command;
  };

  const newRecord = (scope: CommandScope, content: CommandContent): ApplicationCommandRecord => ({
    ...content,
    id: ids(),
    applicationId: scope.applicationId,
    guildId: scope.guildId,
    version: ids(),
    createdAt: clock.now(),
  });

  /** The command with new content: a new version when anything changed, else as it was. */
  const withContent = (command: ApplicationCommandRecord, content: CommandContent) =>
    sameContent(contentOf(command), content)
      ? { record: command, changed: false }
      : { record: { ...command, ...content, version: ids() }, changed: true };

  /** Writes an edited command; a rename drops its permissions in every guild, as the platform does. */
  const save = async (
    repos: Repositories,
    before: ApplicationCommandRecord,
    after: ApplicationCommandRecord,
  ) => {
    await repos.commands.replace(after);
    if (before.name !== after.name)
      await repos.commands.clearPermissions(after.applicationId, after.id);
  };

  return {
    async list(principal: Principal, scope: CommandScope, view: LocalizationView) {
      const entered = await enter(storage, principal, scope);
      const commands = await storage.commands.listByScope(entered.applicationId, entered.guildId);
      return commands.map((command) => serializeCommand(command, view));
    },

    /**
     * The app's guild commands in every guild its bot is in, for its owner's session (the
     * portal lists them beside the global ones): `[{guild: {id, name}, commands}]`, only the
     * guilds where the app has some.
     */
    async listGuildCommands(principal: Principal, applicationId: string) {
      await requireOwner(storage, principal, applicationId);
      const application = await storage.applications.findById(applicationId);
      if (application?.botUserId == null) return [];
      const guilds = await storage.guilds.listForUser(application.botUserId);
      const found = [];
      for (const guild of guilds) {
        const commands = await storage.commands.listByScope(applicationId, guild.id);
        if (commands.length === 0) continue;
        found.push({
          guild: { id: guild.id, name: guild.name },
          commands: commands.map((command) => serializeCommand(command)),
        });
      }
      return found;
    },

    async get(principal: Principal, scope: CommandScope, commandId: string) {
      const entered = await enter(storage, principal, scope);
      return serializeCommand(await findIn(storage, entered, commandId));
    },

    /**
     * POST: makes the command, or, when the scope has one of that name and type, overwrites it
     * (the platform's upsert). `created` tells the route 201 from 200.
     */
    async create(principal: Principal, scope: CommandScope, input: CreateCommandInput) {
      return storage.transaction(async (tx) => {
        const entered = await enter(tx, principal, scope);
        const content = commandContent(input);
        checkEntryPointScope(entered, content.type, ['type']);
        await tx.commands.lock(entered.applicationId);
        const existing = await tx.commands.listByScope(entered.applicationId, entered.guildId);
        const same = existing.find((command) => sameName(command, content));
        if (same !== undefined) {
          const { record, changed } = withContent(same, content);
          if (changed) await save(tx, same, record);
          return { created: false, command: serializeCommand(record) };
        }
        // Entry points are global only, so one per scope is one per application.
        checkLimits([...existing, content]);
        const record = newRecord(entered, content);
        await tx.commands.create(record);
        return { created: true, command: serializeCommand(record) };
      });
    },

    /** PATCH: the command with the given fields changed, validated again as a whole. */
    async edit(
      principal: Principal,
      target: CommandScope & { commandId: string },
      patch: EditCommandInput,
    ) {
      const { commandId, ...scope } = target;
      return storage.transaction(async (tx) => {
        const entered = await enter(tx, principal, scope);
        await tx.commands.lock(entered.applicationId);
        const command = await findIn(tx, entered, commandId);
        const content = commandContent(parseInput(CreateCommandBody, mergedBody(command, patch)));
        const others = await tx.commands.listByScope(entered.applicationId, entered.guildId);
        if (others.some((other) => other.id !== command.id && sameName(other, content))) {
          throw new ApiError('APPLICATION_COMMAND_NAME_EXISTS');
        }
        const { record, changed } = withContent(command, content);
        if (changed) await save(tx, command, record);
        return serializeCommand(record);
      });
    },

    async delete(principal: Principal, scope: CommandScope, commandId: string) {
      await storage.transaction(async (tx) => {
        const entered = await enter(tx, principal, scope);
        await tx.commands.lock(entered.applicationId);
        const command = await findIn(tx, entered, commandId);
        await tx.commands.delete(entered.applicationId, command.id);
      });
    },

    /**
     * PUT: the scope's commands become exactly the given ones, all or nothing. An entry matches
     * an existing command by `id`, else by name and type, and keeps its id (and its version when
     * nothing changed); the commands not listed are deleted with their permissions.
     */
    async bulkOverwrite(
      principal: Principal,
      scope: CommandScope,
      inputs: readonly BulkCommandInput[],
    ) {
      return storage.transaction(async (tx) => {
        const entered = await enter(tx, principal, scope);
        const contents = inputs.map((input, index) => {
          const content = commandContent(input, [index]);
          checkEntryPointScope(entered, content.type, [index, 'type']);
          return content;
        });
        contents.forEach((content, index) => {
          if (contents.findIndex((other) => sameName(other, content)) !== index) {
            throw invalidField(
              [index, 'name'],
              'APPLICATION_COMMANDS_DUPLICATE_NAME',
              'Application command names must be unique',
            );
          }
        });
        checkLimits(contents);
        await tx.commands.lock(entered.applicationId);
        const existing = await tx.commands.listByScope(entered.applicationId, entered.guildId);
        const kept = new Set<string>();
        const results: ApplicationCommandRecord[] = [];
        for (const [index, content] of contents.entries()) {
          const id = inputs[index]?.id ?? null;
          const match =
            existing.find((command) => id !== null && command.id === id && !kept.has(command.id)) ??
            existing.find((command) => !kept.has(command.id) && sameName(command, content));
          if (match === undefined) {
            results.push(newRecord(entered, content));
            continue;
          }
          kept.add(match.id);
          results.push(withContent(match, content).record);
        }
        for (const command of existing) {
          if (!kept.has(command.id)) await tx.commands.delete(entered.applicationId, command.id);
        }
        for (const record of results) {
          const before = existing.find((command) => command.id === record.id);
          if (before === undefined) await tx.commands.create(record);
          else if (before !== record) await save(tx, before, record);
        }
        return [...results]
          .sort((a, b) => compareSnowflakes(a.id, b.id))
          .map((r) => serializeCommand(r));
      });
    },

    permissions: createCommandPermissionOperations(deps),
  };
}

export type CommandService = ReturnType<typeof createCommandService>;
