import { GatewayIntentBits as I } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { generateToken, hashSecret } from '../../domain/credentials.js';
import { createSnowflakeGenerator } from '../../domain/snowflakes.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import {
  INTERACTION_FIXTURE_NOW,
  useInteractionFixture,
} from '../../../test/support/interactionFixture.js';
import { apiRequest } from '../../../test/support/inject.js';

const PING = { name: 'ping', description: 'Answers' };

/** The id a client library reads from a bot token: its first segment, base64. */
function idOfToken(auth: string): string {
  const [first = ''] = auth.replace(/^Bot /, '').split('.');
  return Buffer.from(first, 'base64url').toString('utf8');
}

describeDrivers('an application and its bot user share one id ($driver)', (driver) => {
  const f = useInteractionFixture(driver);
  // A worker of its own: these ids never meet the server's.
  const nextId = createSnowflakeGenerator({
    clock: { now: () => INTERACTION_FIXTURE_NOW },
    workerId: 30,
  });

  /**
   * An application as they were made before its bot shared its id: a bot user with an id of its
   * own, and a bot token carrying that id. Written through storage, as the old rows are.
   */
  async function legacyApplication() {
    const { storage } = f.server.app;
    const now = f.clock.now();
    const botUserId = nextId();
    const applicationId = nextId();
    const token = generateToken(botUserId, now);
    await storage.transaction(async (tx) => {
      await tx.users.create({ id: botUserId, username: 'legacy', bot: true, createdAt: now });
      await tx.applications.create({
        id: applicationId,
        name: 'Legacy',
        ownerId: f.guild.owner.userId,
        botUserId,
        verifyKey: 'ab'.repeat(32),
        signingKey: 'key',
        clientSecretHash: hashSecret('secret'),
        createdAt: now,
      });
      await tx.tokens.create({
        hash: hashSecret(token),
        kind: 'bot',
        userId: botUserId,
        applicationId,
        scopes: [],
        createdAt: now,
        expiresAt: null,
      });
    });
    await f.server.app.services.guilds.addBot({
      guildId: f.guild.guildId,
      applicationId,
      permissions: 0n,
    });
    return { applicationId, botUserId, auth: `Bot ${token}` };
  }

  /** The owner runs the command of `applicationId`; its bot's gateway gets the interaction. */
  async function invoke(applicationId: string, commandId: string, bot: string) {
    const gateway = await f.gateway(bot, I.GUILDS);
    const res = await f.call('POST', '/interactions', f.guild.owner.token, {
      type: 2,
      application_id: applicationId,
      guild_id: f.guild.guildId,
      channel_id: await f.channelId(),
      session_id: 'session-1',
      nonce: 'nonce-1',
      data: { id: commandId, name: 'ping', type: 1 },
    });
    expect(res.statusCode, res.body).toBe(204);
    const created = (await gateway.dispatch('INTERACTION_CREATE')).d as {
      id: string;
      token: string;
      application_id: string;
    };
    return created;
  }

  /** A request without Authorization: the interaction token routes. */
  const tokenRoute = (method: 'GET' | 'POST' | 'PATCH', path: string, payload?: object) =>
    apiRequest(f.server.app, `${method} ${path}`, { payload });

  /** Defers, then edits the original and follows up at /webhooks/{id}/{token}. */
  async function answer(interaction: { id: string; token: string }, webhookId: string) {
    const callback = `/interactions/${interaction.id}/${interaction.token}/callback`;
    const deferred = await tokenRoute('POST', callback, { type: 5 });
    expect(deferred.statusCode, deferred.body).toBe(204);
    const base = `/webhooks/${webhookId}/${interaction.token}`;
    const edited = await tokenRoute('PATCH', `${base}/messages/@original`, { content: 'pong' });
    expect(edited.statusCode, edited.body).toBe(200);
    const followup = await tokenRoute('POST', base, { content: 'and again' });
    expect(followup.statusCode, followup.body).toBe(200);
    return {
      edited: edited.json<{ content: string }>(),
      followup: followup.json<Record<string, unknown>>(),
    };
  }

  it('a new application: the id in its bot token registers commands and answers', async () => {
    const id = idOfToken(f.guild.bot.token);
    expect(id).toBe(f.guild.bot.applicationId);
    expect(id).toBe(f.guild.bot.userId);

    const registered = await f.call(
      'POST',
      `/applications/${id}/commands`,
      f.guild.bot.token,
      PING,
    );
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json()).toMatchObject({ application_id: id, name: 'ping' });
    const me = await f.call('GET', '/users/@me', f.guild.bot.token);
    expect(me.json()).toMatchObject({ id, bot: true });

    const interaction = await invoke(id, registered.json<{ id: string }>().id, f.guild.bot.token);
    expect(interaction.application_id).toBe(id);
    const { edited, followup } = await answer(interaction, id);
    expect(edited.content).toBe('pong');
    expect(followup).toMatchObject({ content: 'and again', application_id: id, webhook_id: id });
  });

  it('an application made before: its bot user id still names it, for that bot only', async () => {
    const legacy = await legacyApplication();
    const id = idOfToken(legacy.auth);
    expect(id).toBe(legacy.botUserId);
    expect(id).not.toBe(legacy.applicationId);

    // Another application's bot naming the legacy bot's id is refused and changes nothing.
    const stranger = await f.call('POST', `/applications/${id}/commands`, f.guild.bot.token, PING);
    expect(stranger.statusCode).toBe(403);
    expect(stranger.json()).toMatchObject({ code: 50001 });
    // The legacy bot's id is no application id to anyone else either.
    const owner = await f.call('GET', `/applications/${id}/commands`, f.guild.owner.token);
    expect(owner.statusCode).toBe(403);
    expect(owner.json()).toMatchObject({ code: 50001 });

    const registered = await f.call('POST', `/applications/${id}/commands`, legacy.auth, PING);
    expect(registered.statusCode, registered.body).toBe(201);
    expect(registered.json()).toMatchObject({ application_id: legacy.applicationId });
    const listed = await f.call(
      'GET',
      `/applications/${legacy.applicationId}/commands`,
      legacy.auth,
    );
    expect(listed.json<{ id: string }[]>().map((c) => c.id)).toEqual([
      registered.json<{ id: string }>().id,
    ]);
    const current = await f.call('GET', `/applications/${id}`, legacy.auth);
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({ id: legacy.applicationId });

    const interaction = await invoke(
      legacy.applicationId,
      registered.json<{ id: string }>().id,
      legacy.auth,
    );
    expect(interaction.application_id).toBe(legacy.applicationId);
    // Another bot's id does not open the interaction's token.
    const wrong = await tokenRoute('GET', `/webhooks/${f.guild.bot.userId}/${interaction.token}`);
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json()).toMatchObject({ code: 10015 });
    const { followup } = await answer(interaction, id);
    expect(followup).toMatchObject({ application_id: legacy.applicationId });
  });
});
