import { describe, expect, it } from 'vitest';
import { ChannelType, ErrorType, SdkError, sortGuildChannels } from '../src/node.js';
import type { WireGuildChannel } from '../src/node.js';
import { describeDrivers, useSdkWorld } from './support.js';
import { fullAccount, guildOf } from './lobbiesAccounts.js';

/** The SdkError a promise rejects with (fails when it resolves). */
async function refusal(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SdkError)) throw new Error(`expected an SdkError, got ${String(error)}`);
  return error;
}

const VIEW_CHANNEL = 1n << 10n;
const SEND_MESSAGES = 1n << 11n;

describeDrivers('SDK guilds ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('lists the player’s guilds and a guild’s channels in the web client’s order', async () => {
    const dee = await fullAccount(world(), 'dee');
    const eve = await fullAccount(world(), 'eve');
    const guild = await guildOf(world(), dee, 'Raid night');
    const make = async (json: object) => {
      const res = await world().api<{ id: string }>('POST', `/guilds/${guild.id}/channels`, {
        auth: dee.session,
        json,
      });
      expect(res.status).toBe(201);
      return res.body.id;
    };
    // Made out of order: positions decide, text before voice, categories after loose channels.
    const raids = await make({ name: 'Raids', type: 4, position: 0 });
    const lounge = await make({ name: 'lounge', type: 2, parent_id: raids, position: 0 });
    const plans = await make({ name: 'plans', type: 0, parent_id: raids, position: 3 });
    const officers = await make({
      name: 'officers',
      type: 0,
      parent_id: raids,
      position: 1,
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(VIEW_CHANNEL) }],
    });
    const rules = await make({
      name: 'rules',
      type: 0,
      position: 9,
      permission_overwrites: [{ id: guild.id, type: 0, deny: String(SEND_MESSAGES) }],
    });
    const dees = await world().readyClient(dee);
    expect((await dees.getUserGuilds()).map((g) => [g.id(), g.name()])).toEqual([
      [guild.id, 'Raid night'],
    ]);
    const channels = await dees.getGuildChannels(guild.id);
    const general = guild.channels.get('general');
    const voice = guild.channels.get('General');
    const textCategory = guild.channels.get('Text Channels');
    const voiceCategory = guild.channels.get('Voice Channels');
    const order = channels.map((c) => c.id());
    // The web client's sidebar: each category by position, its text channels before its voice.
    expect(order.indexOf(raids)).toBeLessThan(order.indexOf(officers));
    expect(order.indexOf(officers)).toBeLessThan(order.indexOf(plans));
    expect(order.indexOf(plans)).toBeLessThan(order.indexOf(lounge));
    expect(order.indexOf(rules)).toBeLessThan(order.indexOf(raids));
    expect(order).toHaveLength(new Set(order).size);
    expect(order).toEqual(expect.arrayContaining([general, voice, textCategory, voiceCategory]));

    const byId = new Map(channels.map((c) => [c.id(), c]));
    const officersChannel = byId.get(officers);
    expect(officersChannel?.name()).toBe('officers');
    expect(officersChannel?.type()).toBe(ChannelType.GuildText);
    expect(officersChannel?.parentId()).toBe(raids);
    expect(officersChannel?.position()).toBe(1);
    expect(officersChannel?.isLinkable()).toBe(true);
    expect(officersChannel?.isViewableAndWriteableByAllMembers()).toBe(false);
    expect(byId.get(rules)?.isViewableAndWriteableByAllMembers()).toBe(false);
    expect(byId.get(plans)?.isViewableAndWriteableByAllMembers()).toBe(true);
    expect(byId.get(lounge)?.isLinkable()).toBe(false);
    expect(byId.get(raids)?.isLinkable()).toBe(false);
    expect(byId.get(plans)?.linkedLobby()).toBeNull();

    // Linked: the channel names the lobby.
    const lobbyId = await dees.createOrJoinLobby('raid');
    await world().api('PUT', `/lobbies/${lobbyId}/members/${dee.id}`, {
      auth: `Bot ${world().dev.botToken}`,
      json: { flags: 1 },
    });
    await dees.linkChannelToLobby(lobbyId, plans);
    const linked = (await dees.getGuildChannels(guild.id)).find((c) => c.id() === plans);
    expect([linked?.linkedLobby()?.applicationId(), linked?.linkedLobby()?.lobbyId()]).toEqual([
      world().dev.applicationId,
      lobbyId,
    ]);

    // Someone else: not in the guild, then in it without MANAGE_CHANNELS.
    const eves = await world().readyClient(eve);
    expect(await eves.getUserGuilds()).toEqual([]);
    const outsider = await refusal(eves.getGuildChannels(guild.id));
    expect([outsider.type, outsider.status, outsider.code]).toEqual([
      ErrorType.HTTPError,
      403,
      50001,
    ]);
    const invite = await world().api<{ code: string }>('POST', `/channels/${general}/invites`, {
      auth: dee.session,
      json: {},
    });
    await world().api('POST', `/invites/${invite.body.code}`, { auth: eve.session });
    const seenByEve = await eves.getGuildChannels(guild.id);
    expect(seenByEve.map((c) => c.id())).not.toContain(officers);
    expect(seenByEve.some((c) => c.isLinkable())).toBe(false);
  });

  it('refuses unknown guilds and bad ids; a provisional player has no guilds', async () => {
    const bob = await world().player('Bob');
    const bobs = await world().readyClient(bob);
    expect(await bobs.getUserGuilds()).toEqual([]);
    const unknown = await refusal(bobs.getGuildChannels('4242'));
    expect([unknown.status, unknown.code]).toEqual([404, 10004]);
    const bad = await refusal(bobs.getGuildChannels('raid night'));
    expect(bad.type).toBe(ErrorType.ValidationError);
  });
});

describe('sortGuildChannels', () => {
  const channel = (over: Partial<WireGuildChannel> & { id: string }): WireGuildChannel => ({
    name: over.id,
    type: 0,
    position: 0,
    parent_id: null,
    linkable: false,
    viewable_and_writeable_by_all_members: true,
    linked_lobby: null,
    ...over,
  });

  it('lists loose channels, then each category with its channels; text before voice', () => {
    const sorted = sortGuildChannels([
      channel({ id: '30', type: 4, position: 1 }),
      channel({ id: '31', type: 2, parent_id: '30', position: 0 }),
      channel({ id: '32', parent_id: '30', position: 5 }),
      channel({ id: '20', type: 4, position: 0 }),
      channel({ id: '21', parent_id: '20', position: 2 }),
      channel({ id: '22', parent_id: '20', position: 1 }),
      channel({ id: '11', position: 3 }),
      channel({ id: '10', type: 2, position: 0 }),
      channel({ id: '12', position: 3 }),
      // Not listed by the web client: a forum.
      channel({ id: '40', type: 15 }),
      // A channel whose category is not visible counts as loose.
      channel({ id: '50', parent_id: '99', position: 4 }),
    ]);
    expect(sorted.map((c) => c.id)).toEqual([
      '11',
      '12',
      '50',
      '10',
      '20',
      '22',
      '21',
      '30',
      '32',
      '31',
    ]);
  });
});
