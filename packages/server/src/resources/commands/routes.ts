import type { FastifyInstance, FastifyRequest } from 'fastify';
import { principalOf } from '../../http/server.js';
import { parseInput } from '../../http/validate.js';
import { LOCALES } from '../guilds/index.js';
import {
  AppParams,
  BulkCommandsBody,
  CommandParams,
  CreateCommandBody,
  EditCommandBody,
  GuildCommandParams,
  GuildParams,
  ListCommandsQuery,
  PutPermissionsBody,
} from './schemas.js';
import type { CommandScope, CommandService } from './service.js';

/** Bot tokens and OAuth2 Bearer tokens (the service checks which application and scope). */
const APP = { config: { auth: ['bot', 'bearer'] } } as const;
/** Reading and deleting commands also take the owner's session (the developer portal). */
const APP_OR_OWNER = { config: { auth: ['bot', 'bearer', 'session'] } } as const;
/** The owner's session only. */
const OWNER = { config: { auth: ['session'] } } as const;

const LOCALE_SET: ReadonlySet<string> = new Set(LOCALES);

/** The reader's locale from `X-Discord-Locale`, when it names one the platform knows. */
export function localeOf(request: FastifyRequest): { locale?: string } {
  const header = request.headers['x-discord-locale'];
  const locale = Array.isArray(header) ? header[0] : header;
  return locale !== undefined && LOCALE_SET.has(locale) ? { locale } : {};
}

/** The 15 command operations of the OpenAPI document (docs/commands.md). */
export function registerCommandRoutes(app: FastifyInstance, commands: CommandService): void {
  const globalScope = (params: unknown): CommandScope => ({
    applicationId: parseInput(AppParams, params).application_id,
    guildId: null,
  });
  const guildScope = (params: unknown): CommandScope => {
    const p = parseInput(GuildParams, params);
    return { applicationId: p.application_id, guildId: p.guild_id };
  };

  for (const [prefix, scopeOf] of [
    ['/applications/:application_id/commands', globalScope],
    ['/applications/:application_id/guilds/:guild_id/commands', guildScope],
  ] as const) {
    app.get(prefix, APP_OR_OWNER, (request) =>
      commands.list(principalOf(request), scopeOf(request.params), {
        ...localeOf(request),
        withLocalizations: parseInput(ListCommandsQuery, request.query).with_localizations ?? false,
      }),
    );

    app.post(prefix, APP, async (request, reply) => {
      const input = parseInput(CreateCommandBody, request.body ?? {});
      const result = await commands.create(principalOf(request), scopeOf(request.params), input);
      return reply.status(result.created ? 201 : 200).send(result.command);
    });

    app.put(prefix, APP, (request) =>
      commands.bulkOverwrite(
        principalOf(request),
        scopeOf(request.params),
        // No body is not an empty list: only `[]` removes every command.
        parseInput(BulkCommandsBody, request.body),
      ),
    );

    const commandId = (params: unknown) => parseInput(CommandParams.loose(), params).command_id;

    app.get(`${prefix}/:command_id`, APP_OR_OWNER, (request) =>
      commands.get(principalOf(request), scopeOf(request.params), commandId(request.params)),
    );

    app.patch(`${prefix}/:command_id`, APP, (request) =>
      commands.edit(
        principalOf(request),
        { ...scopeOf(request.params), commandId: commandId(request.params) },
        parseInput(EditCommandBody, request.body ?? {}),
      ),
    );

    app.delete(`${prefix}/:command_id`, APP_OR_OWNER, async (request, reply) => {
      await commands.delete(
        principalOf(request),
        scopeOf(request.params),
        commandId(request.params),
      );
      return reply.status(204).send();
    });
  }

  // Guildhall's portal: the app's guild commands across its bot's guilds, for its owner.
  app.get('/applications/:application_id/guild-commands', OWNER, (request) =>
    commands.listGuildCommands(
      principalOf(request),
      parseInput(AppParams, request.params).application_id,
    ),
  );

  app.get('/applications/:application_id/guilds/:guild_id/commands/permissions', APP, (request) => {
    const p = parseInput(GuildParams, request.params);
    return commands.permissions.list(principalOf(request), {
      applicationId: p.application_id,
      guildId: p.guild_id,
    });
  });

  app.get(
    '/applications/:application_id/guilds/:guild_id/commands/:command_id/permissions',
    APP,
    (request) => {
      const p = parseInput(GuildCommandParams, request.params);
      return commands.permissions.get(
        principalOf(request),
        { applicationId: p.application_id, guildId: p.guild_id },
        p.command_id,
      );
    },
  );

  app.put(
    '/applications/:application_id/guilds/:guild_id/commands/:command_id/permissions',
    APP,
    (request) => {
      const p = parseInput(GuildCommandParams, request.params);
      return commands.permissions.put(
        principalOf(request),
        { applicationId: p.application_id, guildId: p.guild_id, commandId: p.command_id },
        parseInput(PutPermissionsBody, request.body ?? {}),
      );
    },
  );
}
