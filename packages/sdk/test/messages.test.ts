import { expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  ChannelType,
  ClientStatus,
  ErrorType,
  SdkError,
  type Client,
  type Platform,
} from '../src/node.js';
import {
  connectReady,
  describeDrivers,
  eventually,
  useSdkWorld,
  type Player,
  type SdkWorld,
} from './support.js';

/** A fetch that counts the requests whose path contains `marker`. */
function countingFetch(marker: () => string) {
  const seen: string[] = [];
  const wrapped: typeof fetch = (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (url.includes(marker())) seen.push(url);
    return fetch(input, init);
  };
  return { fetch: wrapped, seen };
}

/** Lets anyone in a connected game message these players (the default is friends only). */
async function openDms(world: SdkWorld, ...players: Player[]) {
  for (const p of players) {
    await world.server.app.storage.relationships.setMessagePolicy(p.id, 'everyone');
  }
}

/** Rejects with the SdkError the promise rejects with, or fails. */
async function refusal(promise: Promise<unknown>): Promise<SdkError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof SdkError)) throw new Error(`expected an SdkError, got ${String(error)}`);
  return error;
}

describeDrivers('SDK direct messages ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('sends a DM that the other client hears, with a handle on both sides', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    await openDms(world(), ada, bob);
    const adas = await world().readyClient(ada);
    const bobs = await world().readyClient(bob);
    const heard: string[] = [];
    bobs.setMessageCreatedCallback((id) => heard.push(id));

    const id = await adas.sendUserMessage(bob.id, 'good game');
    await eventually(() => (heard.includes(id) ? true : undefined), "Bob's messageCreated");
    const handle = bobs.getMessageHandle(id);
    expect(handle?.content()).toBe('good game');
    expect(handle?.authorId()).toBe(ada.id);
    expect(handle?.author()?.id).toBe(ada.id);
    expect(handle?.recipientId()).toBe(bob.id);
    expect(handle?.lobbyId()).toBeNull();
    expect(handle?.applicationId()).toBe(world().dev.applicationId);
    expect(handle?.sentFromGame()).toBe(true);
    expect(handle?.sentTimestamp()).toBeGreaterThan(Date.UTC(2020, 0, 1));
    expect(handle?.editedTimestamp()).toBe(0);
    const channel = handle?.channel();
    expect(channel?.type()).toBe(ChannelType.Dm);
    expect(channel?.recipients()).toEqual([ada.id]);
    expect(adas.getMessageHandle(id)?.recipientId()).toBe(bob.id);
    expect(adas.getChannelHandle(handle?.channelId() ?? '')?.recipients()).toEqual([bob.id]);
  });

  it('sends a DM with the game’s metadata, which the recipient reads', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    await openDms(world(), ada, bob);
    const adas = await world().readyClient(ada);
    const bobs = await world().readyClient(bob);
    const heard: string[] = [];
    bobs.setMessageCreatedCallback((id) => heard.push(id));
    const id = await adas.sendUserMessageWithMetadata(bob.id, 'join us', { party: 'red' });
    await eventually(() => (heard.includes(id) ? true : undefined), "Bob's messageCreated");
    expect(bobs.getMessageHandle(id)?.metadata()).toEqual({ party: 'red' });
    const [fetched] = await (await world().readyClient(bob)).getUserMessagesWithLimit(ada.id, 1);
    expect(fetched?.metadata()).toEqual({ party: 'red' });
    const tooMany = Object.fromEntries(Array.from({ length: 26 }, (_, i) => [`k${i}`, 'v']));
    const refused = await refusal(adas.sendUserMessageWithMetadata(bob.id, 'x', tooMany));
    expect(refused.type).toBe(ErrorType.ValidationError);
  });

  it('answers getUserMessagesWithLimit from its cache when it holds enough, and not after a new session', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    await openDms(world(), ada, bob);
    const adas = await world().readyClient(ada);
    const sent: string[] = [];
    for (const text of ['one', 'two', 'three']) sent.push(await adas.sendUserMessage(bob.id, text));
    const counter = countingFetch(() => `/users/${ada.id}/messages`);
    const bobs = await world().readyClient(bob, { fetch: counter.fetch });
    const contents = async (limit: number) =>
      (await bobs.getUserMessagesWithLimit(ada.id, limit)).map((m) => m.content());

    expect(await contents(2)).toEqual(['three', 'two']);
    expect(counter.seen).toHaveLength(1);
    expect(await contents(2)).toEqual(['three', 'two']);
    expect(await contents(1)).toEqual(['three']);
    expect(counter.seen).toHaveLength(1);
    // More than the cache holds: asked for, and the answer (3 < 5) is the whole conversation.
    expect(await contents(5)).toEqual(['three', 'two', 'one']);
    expect(counter.seen).toHaveLength(2);
    expect(await contents(50)).toEqual(['three', 'two', 'one']);
    expect(counter.seen).toHaveLength(2);

    // A live message joins the cache: still no request.
    const heard: string[] = [];
    bobs.setMessageCreatedCallback((id) => heard.push(id));
    const four = await adas.sendUserMessage(bob.id, 'four');
    await eventually(() => (heard.includes(four) ? true : undefined), 'the live message');
    expect(await contents(4)).toEqual(['four', 'three', 'two', 'one']);
    expect(counter.seen).toHaveLength(2);

    // A new session (READY, not a RESUME) drops the cache's claim: the next read asks again.
    bobs.disconnect();
    await connectReady(bobs);
    expect(await contents(1)).toEqual(['four']);
    expect(counter.seen).toHaveLength(3);
  });

  it('keeps the cache across a RESUME, with the messages the gateway replays', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    await openDms(world(), ada, bob);
    const adas = await world().readyClient(ada);
    await adas.sendUserMessage(bob.id, 'one');
    // Bob's sockets, so the test can cut the connection as a network failure would.
    const sockets: WebSocket[] = [];
    class Captured extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets.push(this);
      }
    }
    const counter = countingFetch(() => `/users/${ada.id}/messages`);
    const bobs = await world().readyClient(bob, {
      fetch: counter.fetch,
      platform: { WebSocket: Captured as unknown as Platform['WebSocket'] },
    });
    expect((await bobs.getUserMessagesWithLimit(ada.id, 5)).map((m) => m.content())).toEqual([
      'one',
    ]);
    expect(counter.seen).toHaveLength(1);
    const statuses: ClientStatus[] = [];
    bobs.setStatusChangedCallback((status) => statuses.push(status));
    const heard: string[] = [];
    bobs.setMessageCreatedCallback((id) => heard.push(id));

    sockets.at(-1)?.terminate();
    await eventually(
      () => (statuses.includes(ClientStatus.Reconnecting) ? true : undefined),
      'Reconnecting',
    );
    const two = await adas.sendUserMessage(bob.id, 'two');
    await eventually(() => (statuses.at(-1) === ClientStatus.Ready ? true : undefined), 'Ready');
    await eventually(() => (heard.includes(two) ? true : undefined), 'the replayed message');
    expect(sockets.length).toBe(2);
    // RESUMED, not a new READY: the cache still answers, with the replayed message in it.
    expect((await bobs.getUserMessagesWithLimit(ada.id, 5)).map((m) => m.content())).toEqual([
      'two',
      'one',
    ]);
    expect(counter.seen).toHaveLength(1);
  });

  it('pages histories longer than one request', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    await openDms(world(), ada, bob);
    // Past the pre-approval limit of 100 DMs per two hours (docs/social.md#limits).
    await world().server.app.storage.applications.update(world().dev.applicationId, {
      socialApproved: true,
    });
    const adas = await world().readyClient(ada);
    for (let i = 0; i < 105; i++) await adas.sendUserMessage(bob.id, `m${i}`);
    const counter = countingFetch(() => `/users/${ada.id}/messages`);
    const bobs = await world().readyClient(bob, { fetch: counter.fetch });
    const got = await bobs.getUserMessagesWithLimit(ada.id, 103);
    expect(got).toHaveLength(103);
    expect(got[0]?.content()).toBe('m104');
    expect(got[102]?.content()).toBe('m2');
    expect(counter.seen).toHaveLength(2);
    expect(counter.seen[1]).toContain('before=');
  });

  it('edits and deletes DMs, with the other side’s callbacks and cache following', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    await openDms(world(), ada, bob);
    const adas = await world().readyClient(ada);
    const counter = countingFetch(() => `/users/${ada.id}/messages`);
    const bobs = await world().readyClient(bob, { fetch: counter.fetch });
    const updated: string[] = [];
    const deleted: [string, string][] = [];
    bobs.setMessageUpdatedCallback((id) => updated.push(id));
    bobs.setMessageDeletedCallback((id, channelId) => deleted.push([id, channelId]));
    const keep = await adas.sendUserMessage(bob.id, 'hello');
    const gone = await adas.sendUserMessage(bob.id, 'oops');
    expect((await bobs.getUserMessagesWithLimit(ada.id, 10)).map((m) => m.id())).toEqual([
      gone,
      keep,
    ]);
    const handle = bobs.getMessageHandle(keep);

    await adas.editUserMessage(bob.id, keep, 'hello there');
    await eventually(() => (updated.includes(keep) ? true : undefined), 'messageUpdated');
    expect(handle?.content()).toBe('hello there');
    expect(handle?.editedTimestamp()).toBeGreaterThan(0);

    const channelId = handle?.channelId() ?? '';
    await adas.deleteUserMessage(bob.id, gone);
    await eventually(() => (deleted.length > 0 ? true : undefined), 'messageDeleted');
    expect(deleted).toEqual([[gone, channelId]]);
    expect(bobs.getMessageHandle(gone)).toBeNull();
    const requests = counter.seen.length;
    expect((await bobs.getUserMessagesWithLimit(ada.id, 10)).map((m) => m.content())).toEqual([
      'hello there',
    ]);
    expect(counter.seen).toHaveLength(requests);

    // Only the author edits or deletes; unknown messages and bad arguments are refused.
    const notMine = await refusal(bobs.editUserMessage(ada.id, keep, 'mine now'));
    expect([notMine.type, notMine.status, notMine.code]).toEqual([ErrorType.HTTPError, 403, 50005]);
    const unknown = await refusal(adas.deleteUserMessage(bob.id, gone));
    expect([unknown.status, unknown.code]).toEqual([404, 10008]);
    const empty = await refusal(adas.editUserMessage(bob.id, keep, '   '));
    expect(empty.type).toBe(ErrorType.ValidationError);
    const badId = await refusal(adas.sendUserMessage('bob', 'hi'));
    expect(badId.type).toBe(ErrorType.ValidationError);
  });

  it('summarises the DMs by their last message, newest first', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    const cy = await world().player('Cy');
    await openDms(world(), ada, bob, cy);
    const adas = await world().readyClient(ada);
    await adas.sendUserMessage(bob.id, 'first');
    const toCy = await adas.sendUserMessage(cy.id, 'second');
    const toBob = await adas.sendUserMessage(bob.id, 'third');
    const summaries = await adas.getUserMessageSummaries();
    expect(summaries.map((s) => [s.userId(), s.lastMessageId()])).toEqual([
      [bob.id, toBob],
      [cy.id, toCy],
    ]);
  });

  it('refuses what the platform refuses, and everything before Ready', async () => {
    const ada = await world().player('Ada');
    const bob = await world().player('Bob');
    const adas: Client = await world().client(ada);
    const early = await refusal(adas.sendUserMessage(bob.id, 'hi'));
    expect(early.type).toBe(ErrorType.ClientNotReady);
    await connectReady(adas);
    // Bob lets only friends message him (the default).
    const refused = await refusal(adas.sendUserMessage(bob.id, 'hi'));
    expect([refused.status, refused.code]).toEqual([403, 50007]);
    const limit = await refusal(adas.getUserMessagesWithLimit(bob.id, 0));
    expect(limit.type).toBe(ErrorType.ValidationError);
  });
});
