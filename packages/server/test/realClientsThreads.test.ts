/**
 * Threads and polls through discord.js 14: a bot starts threads (with and without a message),
 * posts in them, archives and deletes them, makes a forum post with a tag, and sends a poll a
 * person votes in, whose votes and voters it reads before it ends the poll early.
 *
 * @module
 */
import {
  ChannelType,
  Client,
  Events,
  GatewayIntentBits,
  type AnyThreadChannel,
  type ForumChannel,
  type Message,
  type TextChannel,
  type User,
} from 'discord.js';
import { PermissionFlags as P } from '@guildhall/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guildFixture, type GuildFixture, type Person } from './support/guildMembers.js';
import { once } from './support/realClients.js';
import { startTestServer, type TestServer } from './support/testServer.js';

let server: TestServer;
let fx: GuildFixture;
let carol: Person;
let client: Client;
let text: TextChannel;

beforeAll(async () => {
  server = await startTestServer({ listen: true, gateway: { identifiesPerBucket: 1000 } });
  fx = await guildFixture(server, { botPermissions: P.ADMINISTRATOR });
  carol = await fx.join('carol');
  const [channel] = await server.app.storage.channels.listByGuild(fx.guildId);
  client = new Client({
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.GuildMessagePolls,
    ],
    rest: { api: `${server.baseUrl}/api` },
    waitGuildTimeout: 10 * 60_000,
  });
  const ready = once(client, Events.ClientReady);
  await client.login(fx.bot.token.replace(/^Bot /, ''));
  await ready;
  const fetched = await client.channels.fetch(channel?.id ?? '');
  if (fetched?.type !== ChannelType.GuildText) throw new TypeError('not a text channel');
  text = fetched;
});
afterAll(async () => {
  await client.destroy();
  await server.close();
});

describe('discord.js 14', () => {
  it('starts, posts in, archives and deletes threads', async () => {
    const created = once<[AnyThreadChannel, boolean]>(client, Events.ThreadCreate);
    const thread = await text.threads.create({
      name: 'release plan',
      type: ChannelType.PublicThread,
    });
    const [announced, newlyCreated] = await created;
    expect(announced.id).toBe(thread.id);
    expect(newlyCreated).toBe(true);
    expect(thread.parentId).toBe(text.id);
    expect(thread.ownerId).toBe(fx.bot.userId);

    const inThread = once<[Message]>(
      client,
      Events.MessageCreate,
      (m) => m.channelId === thread.id,
    );
    const sent = await thread.send('first step');
    expect((await inThread)[0].id).toBe(sent.id);
    const fetched = await client.channels.fetch(thread.id, { force: true });
    expect(fetched?.isThread() === true ? fetched.messageCount : null).toBe(1);

    const starter = await text.send('discuss this');
    const branch = await starter.startThread({ name: 'branch' });
    expect(branch.id).toBe(starter.id);

    const active = await text.guild.channels.fetchActiveThreads();
    expect([...active.threads.keys()].sort()).toEqual([thread.id, branch.id].sort());

    const updated = once<[AnyThreadChannel, AnyThreadChannel]>(
      client,
      Events.ThreadUpdate,
      (_old, now) => now.id === thread.id && now.archived === true,
    );
    await thread.setArchived(true);
    await updated;
    const archived = await text.threads.fetchArchived();
    expect([...archived.threads.keys()]).toEqual([thread.id]);

    const deleted = once<[AnyThreadChannel]>(client, Events.ThreadDelete);
    await branch.delete();
    expect((await deleted)[0].id).toBe(branch.id);
  });

  it('makes a forum post with a tag', async () => {
    const forum: ForumChannel = await text.guild.channels.create({
      name: 'help',
      type: ChannelType.GuildForum,
      availableTags: [{ name: 'bug' }, { name: 'idea' }],
    });
    const bug = forum.availableTags.find((t) => t.name === 'bug');
    const post = await forum.threads.create({
      name: 'it crashes',
      message: { content: 'steps to reproduce' },
      appliedTags: [bug?.id ?? ''],
    });
    expect(post.appliedTags).toEqual([bug?.id]);
    const messages = await post.messages.fetch();
    expect([...messages.values()].map((m) => m.content)).toEqual(['steps to reproduce']);
  });

  it('sends a poll, sees a vote and its voters, and ends it', async () => {
    const message = await text.send({
      poll: {
        question: { text: 'Ship on Friday?' },
        answers: [{ text: 'Yes' }, { text: 'No' }],
        duration: 1,
        allowMultiselect: false,
      },
    });
    expect(message.poll?.question.text).toBe('Ship on Friday?');
    const voted = once<[unknown, string]>(client, Events.MessagePollVoteAdd);
    const res = await server.app.http.inject({
      method: 'PUT',
      url: `/api/v10/channels/${text.id}/polls/${message.id}/answers/@me`,
      headers: { authorization: carol.token },
      payload: { answer_ids: [2] },
    });
    expect(res.statusCode).toBe(204);
    const [, userId] = await voted;
    expect(userId).toBe(carol.userId);
    const voters = await message.poll?.answers.get(2)?.voters.fetch();
    expect([...(voters?.values() ?? [])].map((u: User) => u.id)).toEqual([carol.userId]);
    const ended = await message.poll?.end();
    expect(ended?.poll?.resultsFinalized).toBe(true);
  });
});
