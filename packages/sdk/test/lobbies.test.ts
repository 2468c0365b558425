import { expect, it } from 'vitest';
import { ChannelType, ErrorType, SdkError } from '../src/node.js';
import { describeDrivers, eventually, useSdkWorld } from './support.js';
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

const until = (check: () => boolean, what: string) =>
  eventually(() => (check() ? true : undefined), what);

describeDrivers('SDK lobbies ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('creates and joins a lobby by secret from two clients, with the callbacks and handles', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    const adas = await world().readyClient(ada);
    const bobs = await world().readyClient(bob);
    const created: string[] = [];
    const added: [string, string][] = [];
    adas.setLobbyCreatedCallback((id) => created.push(id));
    adas.setLobbyMemberAddedCallback((lobby, member) => added.push([lobby, member]));

    const lobbyId = await adas.createOrJoinLobbyWithMetadata(
      'match-42',
      { mode: 'duel' },
      { rank: 'gold' },
    );
    await until(() => created.includes(lobbyId), "Ada's lobbyCreated");
    expect(await bobs.createOrJoinLobby('match-42')).toBe(lobbyId);
    await until(() => added.length > 0, "Ada's lobbyMemberAdded");
    expect(added).toEqual([[lobbyId, bob.id]]);

    const seenByAda = adas.getLobbyHandle(lobbyId);
    expect(seenByAda?.lobbyMemberIds().sort()).toEqual([ada.id, bob.id].sort());
    expect(seenByAda?.getLobbyMemberHandle(ada.id)?.metadata()).toEqual({ rank: 'gold' });
    expect(seenByAda?.getLobbyMemberHandle(bob.id)?.canLinkLobby()).toBe(false);
    expect(seenByAda?.lobbyMembers().map((m) => m.id())).toContain(bob.id);
    expect(seenByAda?.linkedChannel()).toBeNull();
    expect(bobs.getLobbyHandle(lobbyId)?.metadata()).toEqual({ mode: 'duel' });
    expect(bobs.getLobbyIds()).toEqual([lobbyId]);
    expect(bobs.getChannelHandle(lobbyId)?.type()).toBe(ChannelType.Lobby);

    // Bad arguments never reach the server.
    const empty = await refusal(adas.createOrJoinLobby(''));
    expect(empty.type).toBe(ErrorType.ValidationError);
    const tooLong = await refusal(adas.createOrJoinLobby('x'.repeat(251)));
    expect(tooLong.type).toBe(ErrorType.ValidationError);
    const badMetadata = await refusal(
      adas.createOrJoinLobbyWithMetadata('s', { big: 'x'.repeat(1025) }, {}),
    );
    expect(badMetadata.type).toBe(ErrorType.ValidationError);
  });

  it('sends lobby messages both ways and reads the history of members only', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    const cy = await world().player('Cy');
    const adas = await world().readyClient(ada);
    const bobs = await world().readyClient(bob);
    const cys = await world().readyClient(cy);
    const lobbyId = await adas.createOrJoinLobby('room');
    await bobs.createOrJoinLobby('room');
    const heardByBob: string[] = [];
    const heardByAda: string[] = [];
    bobs.setMessageCreatedCallback((id) => heardByBob.push(id));
    adas.setMessageCreatedCallback((id) => heardByAda.push(id));

    const fromAda = await adas.sendLobbyMessageWithMetadata(lobbyId, 'ready?', { map: 'desert' });
    await until(() => heardByBob.includes(fromAda), "Bob's messageCreated");
    const handle = bobs.getMessageHandle(fromAda);
    expect(handle?.content()).toBe('ready?');
    expect(handle?.lobbyId()).toBe(lobbyId);
    expect(handle?.channelId()).toBe(lobbyId);
    expect(handle?.metadata()).toEqual({ map: 'desert' });
    expect(handle?.channel()?.type()).toBe(ChannelType.Lobby);
    expect(handle?.recipientId()).toBe('');
    const fromBob = await bobs.sendLobbyMessage(lobbyId, 'go');
    await until(() => heardByAda.includes(fromBob), "Ada's messageCreated");

    const newest = await bobs.getLobbyMessagesWithLimit(lobbyId, 1);
    expect(newest.map((m) => m.content())).toEqual(['go']);
    const all = await adas.getLobbyMessagesWithLimit(lobbyId, 200);
    expect(all.map((m) => m.content())).toEqual(['go', 'ready?']);

    // Guildhall's own edit (the author) and delete (the game's bot) reach the members' callbacks.
    const updated: string[] = [];
    const deleted: [string, string][] = [];
    adas.setMessageUpdatedCallback((id) => updated.push(id));
    adas.setMessageDeletedCallback((id, channelId) => deleted.push([id, channelId]));
    const edit = await world().api('PATCH', `/lobbies/${lobbyId}/messages/${fromBob}`, {
      auth: `Bearer ${bob.token}`,
      json: { content: 'go go' },
    });
    expect(edit.status).toBe(200);
    await until(() => updated.includes(fromBob), "Ada's messageUpdated");
    expect(adas.getMessageHandle(fromBob)?.content()).toBe('go go');
    expect(adas.getMessageHandle(fromBob)?.editedTimestamp()).toBeGreaterThan(0);
    const removal = await world().api('DELETE', `/lobbies/${lobbyId}/messages/${fromBob}`, {
      auth: `Bot ${world().dev.botToken}`,
    });
    expect(removal.status).toBe(204);
    await until(() => deleted.length > 0, "Ada's messageDeleted");
    expect(deleted).toEqual([[fromBob, lobbyId]]);
    expect(adas.getMessageHandle(fromBob)).toBeNull();

    const outsider = await refusal(cys.getLobbyMessagesWithLimit(lobbyId, 10));
    expect([outsider.type, outsider.status, outsider.code]).toEqual([
      ErrorType.HTTPError,
      403,
      50001,
    ]);
    const unknown = await refusal(adas.getLobbyMessagesWithLimit('4242', 10));
    expect([unknown.status, unknown.code]).toEqual([404, 10031]);
    for (const limit of [0, 201, 1.5]) {
      const bad = await refusal(adas.getLobbyMessagesWithLimit(lobbyId, limit));
      expect(bad.type).toBe(ErrorType.ValidationError);
    }
    const notMember = await refusal(cys.sendLobbyMessage(lobbyId, 'let me in'));
    expect([notMember.status, notMember.code]).toEqual([403, 50001]);
    const blank = await refusal(adas.sendLobbyMessage(lobbyId, '  '));
    expect(blank.type).toBe(ErrorType.ValidationError);
  });

  it('leaves a lobby: the others hear it, the leaver no longer has it', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    const adas = await world().readyClient(ada);
    const bobs = await world().readyClient(bob);
    const lobbyId = await adas.createOrJoinLobby('room');
    await bobs.createOrJoinLobby('room');
    const removed: [string, string][] = [];
    const gone: string[] = [];
    adas.setLobbyMemberRemovedCallback((lobby, member) => removed.push([lobby, member]));
    bobs.setLobbyDeletedCallback((lobby) => gone.push(lobby));

    await bobs.leaveLobby(lobbyId);
    expect(gone).toEqual([lobbyId]);
    expect(bobs.getLobbyHandle(lobbyId)).toBeNull();
    expect(bobs.getLobbyIds()).toEqual([]);
    await until(() => removed.length > 0, "Ada's lobbyMemberRemoved");
    expect(removed).toEqual([[lobbyId, bob.id]]);
    expect(adas.getLobbyHandle(lobbyId)?.lobbyMemberIds()).toEqual([ada.id]);
    const after = await refusal(bobs.getLobbyMessagesWithLimit(lobbyId, 10));
    expect(after.code).toBe(50001);
  });
});

describeDrivers('SDK linked channels ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('links a guild channel, and lets members join its guild (a provisional one must merge first)', async () => {
    const dee = await fullAccount(world(), 'dee');
    const eve = await fullAccount(world(), 'eve');
    const bob = await world().player('Bob');
    const guild = await guildOf(world(), dee, 'Raid night');
    const general = guild.channels.get('general') ?? '';
    const opened: string[] = [];
    const platform = {
      openUrl: (url: string) => {
        opened.push(url);
        return Promise.resolve();
      },
    };
    const dees = await world().readyClient(dee);
    const eves = await world().readyClient(eve, { platform });
    const bobs = await world().readyClient(bob, { platform });
    const lobbyId = await dees.createOrJoinLobby('guild-run');
    await eves.createOrJoinLobby('guild-run');
    await bobs.createOrJoinLobby('guild-run');

    // Without CanLinkLobby the platform refuses; the game's backend grants it.
    const unflagged = await refusal(dees.linkChannelToLobby(lobbyId, general));
    expect([unflagged.status, unflagged.code]).toEqual([403, 50013]);
    const memberUpdates: string[] = [];
    dees.setLobbyMemberUpdatedCallback((_lobby, member) => memberUpdates.push(member));
    const granted = await world().api('PUT', `/lobbies/${lobbyId}/members/${dee.id}`, {
      auth: `Bot ${world().dev.botToken}`,
      json: { flags: 1 },
    });
    expect(granted.status).toBe(200);
    await until(() => memberUpdates.includes(dee.id), "Dee's lobbyMemberUpdated");
    expect(dees.getLobbyHandle(lobbyId)?.getLobbyMemberHandle(dee.id)?.canLinkLobby()).toBe(true);

    const updates: string[] = [];
    eves.setLobbyUpdatedCallback((id) => updates.push(id));
    await dees.linkChannelToLobby(lobbyId, general);
    const linked = dees.getLobbyHandle(lobbyId)?.linkedChannel();
    expect([linked?.id(), linked?.name(), linked?.guildId()]).toEqual([
      general,
      'general',
      guild.id,
    ]);
    await until(() => updates.includes(lobbyId), "Eve's lobbyUpdated");
    expect(eves.getLobbyHandle(lobbyId)?.linkedChannel()?.id()).toBe(general);

    // A provisional account gets the merge-required callback, and no invite.
    let mergeRequired = 0;
    const provisional = await refusal(
      bobs.joinLinkedLobbyGuild(lobbyId, () => {
        mergeRequired += 1;
      }),
    );
    expect(mergeRequired).toBe(1);
    expect([provisional.status, provisional.code]).toEqual([400, 50229]);

    // A full account gets its invite opened, and joins the guild with it.
    const url = await eves.joinLinkedLobbyGuild(lobbyId, () => {
      throw new Error('Eve is not provisional');
    });
    expect(opened).toEqual([url]);
    const prefix = `${new URL(world().apiBase).origin}/invite/`;
    expect(url.startsWith(prefix)).toBe(true);
    const accepted = await world().api('POST', `/invites/${url.slice(prefix.length)}`, {
      auth: eve.session,
    });
    expect(accepted.status).toBe(200);
    expect((await eves.getUserGuilds()).map((g) => g.id())).toEqual([guild.id]);

    await dees.unlinkChannelFromLobby(lobbyId);
    expect(dees.getLobbyHandle(lobbyId)?.linkedChannel()).toBeNull();
    const noLink = await refusal(eves.joinLinkedLobbyGuild(lobbyId, null));
    expect(noLink.code).toBe(10003);
  });
});
