/**
 * Command registration with @discordjs/core's API over @discordjs/rest, pointed at a listening
 * server (only the REST base URL changed): bulk overwrite, create in a guild, list, edit,
 * delete, and command permissions read by the bot and written with a user's Bearer token.
 *
 * @module
 */
import {
  API,
  ApplicationCommandOptionType,
  ApplicationCommandPermissionType,
  ApplicationCommandType,
} from '@discordjs/core';
import { DiscordAPIError, REST } from '@discordjs/rest';
import { beforeEach, describe, expect, it } from 'vitest';
import { generateToken, hashSecret } from '../src/domain/credentials.js';
import { useFileServer } from './support/fileServer.js';
import { guildFixture, type GuildFixture } from './support/guildMembers.js';
import { type TestServer } from './support/testServer.js';

let server: TestServer;
let fx: GuildFixture;
let api: API;

const shared = useFileServer({ listen: true });
beforeEach(async () => {
  server = shared.server;
  fx = await guildFixture(server, { botPermissions: 0n });
  const rest = new REST({ version: '10', api: `${server.baseUrl}/api` }).setToken(
    fx.bot.token.replace(/^Bot /, ''),
  );
  api = new API(rest);
});

describe('@discordjs/core application commands', () => {
  it('registers, lists, edits and deletes commands, and reads and writes their permissions', async () => {
    const appId = fx.bot.applicationId;
    const registered = await api.applicationCommands.bulkOverwriteGlobalCommands(appId, [
      {
        name: 'echo',
        description: 'Says it back',
        options: [
          {
            type: ApplicationCommandOptionType.String,
            name: 'text',
            description: 'What to say (several lines are fine)',
            required: true,
            max_length: 2000,
          },
        ],
      },
      { name: 'Show Profile', type: ApplicationCommandType.User },
      { name: 'Quote', type: ApplicationCommandType.Message },
    ]);
    expect(registered.map((c) => [c.name, c.type])).toEqual([
      ['echo', 1],
      ['Show Profile', 2],
      ['Quote', 3],
    ]);
    const [echo] = registered;
    if (echo === undefined) throw new Error('no echo command');

    const local = await api.applicationCommands.createGuildCommand(appId, fx.guildId, {
      name: 'ban',
      description: 'Bans someone',
      default_member_permissions: '4',
    });
    expect(local).toMatchObject({ guild_id: fx.guildId, default_member_permissions: '4' });

    const listed = await api.applicationCommands.getGlobalCommands(appId, {
      with_localizations: true,
    });
    expect(listed).toEqual(registered);

    const edited = await api.applicationCommands.editGlobalCommand(appId, echo.id, {
      description: 'Repeats you',
      name_localizations: { fr: 'echo-fr' },
    });
    expect(edited).toMatchObject({ id: echo.id, description: 'Repeats you' });
    expect(edited.version).not.toBe(echo.version);

    await api.applicationCommands.deleteGlobalCommand(appId, echo.id);
    expect((await api.applicationCommands.getGlobalCommands(appId)).map((c) => c.name)).toEqual([
      'Show Profile',
      'Quote',
    ]);
    const missing = await api.applicationCommands
      .getGlobalCommand(appId, echo.id)
      .catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(DiscordAPIError);
    expect((missing as DiscordAPIError).code).toBe(10063);

    // Permissions: none yet (10066); a user's Bearer token writes them; the bot reads them.
    const none = await api.applicationCommands
      .getGuildCommandPermissions(appId, fx.guildId, local.id)
      .catch((e: unknown) => e);
    expect((none as DiscordAPIError).code).toBe(10066);
    const userToken = generateToken(fx.owner.userId, Date.now());
    await server.app.storage.tokens.create({
      hash: hashSecret(userToken),
      kind: 'bearer',
      userId: fx.owner.userId,
      applicationId: appId,
      scopes: ['applications.commands.permissions.update'],
      createdAt: Date.now(),
      expiresAt: null,
    });
    const permissions = [
      { id: fx.guildId, type: ApplicationCommandPermissionType.Role, permission: false },
    ];
    const written = await api.applicationCommands.editGuildCommandPermissions(
      userToken,
      appId,
      fx.guildId,
      local.id,
      { permissions },
    );
    expect(written).toEqual({
      id: local.id,
      application_id: appId,
      guild_id: fx.guildId,
      permissions,
    });
    expect(
      await api.applicationCommands.getGuildCommandPermissions(appId, fx.guildId, local.id),
    ).toEqual(written);
    expect(await api.applicationCommands.getGuildCommandsPermissions(appId, fx.guildId)).toEqual([
      written,
    ]);
  });

  it('sees the platform’s errors: a bad name is 50035 with its path', async () => {
    const error = await api.applicationCommands
      .createGlobalCommand(fx.bot.applicationId, { name: 'Bad Name', description: 'x' })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DiscordAPIError);
    expect((error as DiscordAPIError).code).toBe(50035);
    expect((error as DiscordAPIError).message).toContain('name[STRING_TYPE_REGEX]');
  });
});
