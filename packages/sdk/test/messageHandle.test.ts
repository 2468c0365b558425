/**
 * MessageHandle's additional name, additional content, lobby and recipient, through the SDK's
 * Node build against a real server: a lobby member's name set by the game backend, a poll a
 * person sends from the web client's routes, a DM's recipient.
 */
import { expect, it } from 'vitest';
import {
  AdditionalContentType,
  DISCLOSURE_CONTENT,
  DisclosureTypes,
  ErrorType,
  SdkError,
} from '../src/node.js';
import { fullAccount } from './lobbiesAccounts.js';
import { describeDrivers, eventually, useSdkWorld } from './support.js';

const until = (check: () => boolean, what: string) =>
  eventually(() => (check() ? true : undefined), what);

describeDrivers('SDK message handles ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it("a lobby message: the author's additional name from the backend, and its lobby", async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    const adas = await world().readyClient(ada);
    const bobs = await world().readyClient(bob);
    const lobbyId = await adas.createOrJoinLobby('named-room');
    await bobs.createOrJoinLobby('named-room');
    // The game backend names Ada's character on her membership.
    const named = await world().api('PUT', `/lobbies/${lobbyId}/members/${ada.id}`, {
      auth: `Bot ${world().dev.botToken}`,
      json: { additional_name: 'Captain Ada' },
    });
    expect(named.status).toBe(200);
    const heard: string[] = [];
    bobs.setMessageCreatedCallback((id) => heard.push(id));
    const id = await adas.sendLobbyMessage(lobbyId, 'aye');
    await until(() => heard.includes(id), "Bob's messageCreated");
    const handle = bobs.getMessageHandle(id);
    expect(handle?.additionalName()).toBe('Captain Ada');
    expect(handle?.lobby()?.id()).toBe(lobbyId);
    expect(handle?.lobby()?.lobbyMemberIds().sort()).toEqual([ada.id, bob.id].sort());
    expect(handle?.recipient()).toBeNull();
    expect(handle?.additionalContent()).toBeNull();
    // Bob says nothing with a name: his messages carry none.
    const own = await bobs.sendLobbyMessage(lobbyId, 'ok');
    expect(bobs.getMessageHandle(own)?.additionalName() ?? null).toBeNull();
  });

  it('a DM: its recipient, and a poll a person sent from the web client as additional content', async () => {
    const eve = await fullAccount(world(), 'eve_handles');
    const sam = await fullAccount(world(), 'sam_handles');
    const eves = await world().readyClient(eve);
    const heard: string[] = [];
    eves.setMessageCreatedCallback((id) => heard.push(id));
    // Sam, in the web client, opens a DM with Eve and sends a poll.
    const dm = await world().api<{ id: string }>('POST', '/users/@me/channels', {
      auth: sam.session,
      json: { recipient_id: eve.id },
    });
    expect(dm.status).toBe(200);
    const sent = await world().api<{ id: string }>('POST', `/channels/${dm.body.id}/messages`, {
      auth: sam.session,
      json: {
        content: '',
        poll: {
          question: { text: 'Which map?' },
          answers: [{ poll_media: { text: 'Desert' } }, { poll_media: { text: 'Docks' } }],
          duration: 1,
        },
      },
    });
    expect(sent.status).toBe(200);
    await until(() => heard.includes(sent.body.id), "Eve's messageCreated");
    const handle = eves.getMessageHandle(sent.body.id);
    const extra = handle?.additionalContent();
    expect(extra?.type()).toBe(AdditionalContentType.Poll);
    expect(extra?.title()).toBe('Which map?');
    expect(extra?.count()).toBe(1);
    expect(handle?.recipient()?.id()).toBe(eve.id);
    expect(handle?.lobby()).toBeNull();
    expect(handle?.additionalName()).toBeNull();

    // Sam lets anyone in a connected game message him (the default is friends only).
    await world().server.app.storage.relationships.setMessagePolicy(sam.id, 'everyone');
    const reply = await eves.sendUserMessage(sam.id, 'Docks!');
    expect(eves.getMessageHandle(reply)?.recipient()?.id()).toBe(sam.id);
    expect(eves.getMessageHandle(reply)?.additionalContent()).toBeNull();
  });

  it('opens a DM message in the web client at the message; not a lobby message, not while provisional', async () => {
    const eve = await fullAccount(world(), 'eve_opens');
    const sam = await fullAccount(world(), 'sam_opens');
    await world().server.app.storage.relationships.setMessagePolicy(sam.id, 'everyone');
    const opened: string[] = [];
    const eves = await world().readyClient(eve, {
      platform: {
        openUrl: (url) => {
          opened.push(url);
          return Promise.resolve();
        },
      },
    });
    const id = await eves.sendUserMessage(sam.id, 'look at this in the client');
    const channelId = eves.getMessageHandle(id)?.channelId() ?? '';
    expect(eves.canOpenMessageInDiscord(id)).toBe(true);
    const url = await eves.openMessageInDiscord(id, null);
    expect(url).toBe(`${new URL(world().apiBase).origin}/channels/@me/${channelId}/${id}`);
    expect(opened).toEqual([url]);

    const ada = await world().player('Ada');
    const adas = await world().readyClient(ada);
    const lobbyId = await adas.createOrJoinLobby('open-room');
    const inLobby = await adas.sendLobbyMessage(lobbyId, 'here');
    expect(adas.canOpenMessageInDiscord(inLobby)).toBe(false);
    expect(eves.canOpenMessageInDiscord('123')).toBe(false);
    await expect(adas.openMessageInDiscord(inLobby, null)).rejects.toMatchObject({
      type: ErrorType.ValidationError,
    });

    // A provisional player with a DM: the merge callback, and a rejection.
    await world().server.app.storage.relationships.setMessagePolicy(eve.id, 'everyone');
    const dm = await adas.sendUserMessage(eve.id, 'hi from the game');
    expect(adas.canOpenMessageInDiscord(dm)).toBe(true);
    let mergeAsked = 0;
    await expect(
      adas.openMessageInDiscord(dm, () => {
        mergeAsked += 1;
      }),
    ).rejects.toBeInstanceOf(SdkError);
    expect(mergeAsked).toBe(1);
  });

  it('injects the disclosure once, the first time a message will show in the client', async () => {
    const eve = await fullAccount(world(), 'eve_disclosed');
    await world().server.app.storage.relationships.setMessagePolicy(eve.id, 'everyone');
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    await world().server.app.storage.relationships.setMessagePolicy(bob.id, 'everyone');
    const adas = await world().readyClient(ada);
    const heard: string[] = [];
    adas.setMessageCreatedCallback((id) => heard.push(id));
    const disclosures = () =>
      heard.filter(
        (id) =>
          adas.getMessageHandle(id)?.disclosureType() ===
          DisclosureTypes.MessageDataVisibleOnDiscord,
      );
    // An unlinked lobby and a DM between two provisional players stay in the game: none.
    const lobbyId = await adas.createOrJoinLobby('quiet-room');
    const inLobby = await adas.sendLobbyMessage(lobbyId, 'here');
    const toBob = await adas.sendUserMessage(bob.id, 'psst');
    expect(adas.getMessageHandle(toBob)?.disclosureType()).toBeNull();
    expect(adas.getMessageHandle(inLobby)?.disclosureType()).toBeNull();
    expect(disclosures()).toEqual([]);
    // A DM with a full account shows in the client: the disclosure comes in that DM, once.
    const toEve = await adas.sendUserMessage(eve.id, 'hello there');
    const [disclosure] = disclosures();
    const handle = adas.getMessageHandle(disclosure ?? '');
    expect(handle?.content()).toBe(DISCLOSURE_CONTENT);
    expect(handle?.channelId()).toBe(adas.getMessageHandle(toEve)?.channelId());
    expect(adas.getMessageHandle(toEve)?.disclosureType()).toBeNull();
    await adas.sendUserMessage(eve.id, 'again');
    expect(disclosures()).toHaveLength(1);
  });
});
