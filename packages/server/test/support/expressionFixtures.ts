import { ChannelTypes, PERMISSION_ENFORCEMENT_DATES } from '@guildhall/protocol';
import type { App } from '../../src/app.js';
import { fabricatedId, uniqueName } from './fileServer.js';
import { seedDeveloper } from './testServer.js';

/** 2026-02-23: creating emoji, stickers and events moves to the CREATE_ permissions (spec). */
export const SPLIT_MS = PERMISSION_ENFORCEMENT_DATES.CREATE_GUILD_EXPRESSIONS;
export const DAY_MS = 86_400_000;

export const PNG_1X1 =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
export const GIF_1X1 =
  'data:image/gif;base64,R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7';

/**
 * Rate limits stay on, but roomy: the tests send many requests under a clock that never moves,
 * so a window would never reopen.
 */
export const ROOMY_LIMITS = {
  defaultRouteBucket: { limit: 10_000, windowMs: 1000 },
  invalidRequestLimit: { limit: 10_000, windowMs: 1000 },
} as const;

/** A guild owned by a new person, with a text, a voice and a stage channel. */
export async function seedGuild(app: App) {
  const owner = await seedDeveloper(app, uniqueName('owner'), 'owner app');
  const created = await app.services.guilds.create({
    ownerId: owner.userId,
    name: 'Expressions',
    channels: [
      { name: 'general', type: 'text' },
      { name: 'Lounge', type: 'voice' },
    ],
  });
  const [text, voice] = created.channels;
  if (text === undefined || voice === undefined) throw new TypeError('channels missing');
  // Guild creation makes no stage channels: one with an id of the test's own.
  const stage = await app.storage.channels.create({
    ...voice,
    id: fabricatedId(voice.id),
    type: ChannelTypes.GUILD_STAGE_VOICE,
    name: 'Stage',
    position: 2,
  });
  return {
    owner,
    ownerAuth: owner.userToken,
    guildId: created.guild.id,
    textId: text.id,
    voiceId: voice.id,
    stageId: stage.id,
  };
}

/** A bot in the guild whose managed role holds exactly `permissions`. */
export async function botWith(
  app: App,
  input: { guildId: string; name: string; permissions: bigint },
) {
  const dev = await seedDeveloper(app, uniqueName(input.name), `${input.name} app`);
  await app.services.guilds.addBot({
    guildId: input.guildId,
    applicationId: dev.applicationId,
    permissions: input.permissions,
  });
  return { auth: `Bot ${dev.botToken}`, userId: dev.botUserId };
}

/** A bot that is not in the guild. */
export async function outsider(app: App) {
  const dev = await seedDeveloper(app, uniqueName('stranger'), 'stranger app');
  return { auth: `Bot ${dev.botToken}`, userId: dev.botUserId };
}
