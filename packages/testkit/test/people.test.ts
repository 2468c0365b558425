/**
 * People through the kit: each action goes through the platform's public routes and answers with
 * the platform's objects, a refusal is the platform's error, and what a person's client sees is
 * waited on with a timeout that names what did arrive. One platform for the file.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GuildhallApiError,
  WaitTimeoutError,
  startGuildhall,
  type Guildhall,
  type WorldFile,
} from '../src/index.js';

const WORLD: WorldFile = {
  people: { ann: null, bob: null, cat: null },
  guilds: {
    home: {
      owner: 'ann',
      channels: {
        general: { type: 'text' },
        announcements: {
          type: 'text',
          permission_overwrites: [{ role: '@everyone', deny: ['SEND_MESSAGES'] }],
        },
      },
      members: { bob: null },
    },
  },
};

let gh: Guildhall;
let general = '';

beforeAll(async () => {
  gh = await startGuildhall({ world: WORLD });
  general = gh.world.guilds['home']?.channels['general'] ?? '';
});

afterAll(async () => {
  await gh.close();
});

describe('messages', () => {
  it('sends with an attachment, edits and deletes, and the others see each step', async () => {
    const ann = gh.people.get('ann');
    const bob = gh.people.get('bob');
    await bob.connect();
    const sent = await ann.send(general, {
      content: 'the plan',
      files: [{ name: 'plan.txt', data: 'step one', contentType: 'text/plain' }],
    });
    expect(sent).toMatchObject({ content: 'the plan', author: { id: ann.id } });
    expect(sent.attachments.map((a) => a.filename)).toEqual(['plan.txt']);
    const seen = await bob.waitForMessage((m) => m.id === sent.id);
    expect(seen.attachments[0]?.filename).toBe('plan.txt');

    const edited = await ann.edit(sent, 'the new plan');
    expect(edited.content).toBe('the new plan');
    await bob.waitForDispatch<{ id: string; content?: string }>(
      'MESSAGE_UPDATE',
      (d) => d.id === sent.id && d.content === 'the new plan',
      {},
    );

    await ann.delete(sent);
    await bob.waitForDispatch<{ id: string }>('MESSAGE_DELETE', (d) => d.id === sent.id);
    await expect(ann.messages(general)).resolves.not.toContainEqual(
      expect.objectContaining({ id: sent.id }),
    );
  });

  it('replies and reacts', async () => {
    const ann = gh.people.get('ann');
    const bob = gh.people.get('bob');
    await ann.connect();
    const question = await ann.send(general, 'lunch?');
    const answer = await bob.reply(question, 'yes');
    expect(answer.message_reference).toMatchObject({ message_id: question.id });
    await bob.react(question, '👍');
    const reaction = await ann.waitForDispatch<{ message_id: string; user_id: string }>(
      'MESSAGE_REACTION_ADD',
      (d) => d.message_id === question.id,
      {},
    );
    expect(reaction.user_id).toBe(bob.id);
    await bob.unreact(question, '👍');
    await ann.waitForDispatch<{ message_id: string }>(
      'MESSAGE_REACTION_REMOVE',
      (d) => d.message_id === question.id,
      {},
    );
  });

  it("throws the platform's error when it refuses", async () => {
    const bob = gh.people.get('bob');
    const cat = gh.people.get('cat');
    const announcements = gh.world.guilds['home']?.channels['announcements'] ?? '';
    const refused = bob.send(announcements, 'may I?');
    await expect(refused).rejects.toBeInstanceOf(GuildhallApiError);
    await expect(refused).rejects.toMatchObject({ code: 50013, status: 403 });
    // Not a member: the channel is not theirs to see.
    await expect(cat.send(general, 'hello?')).rejects.toMatchObject({ status: 403 });
  });

  it('names what arrived when nothing matching did', async () => {
    const ann = gh.people.get('ann');
    const bob = gh.people.get('bob');
    await bob.connect();
    const since = bob.mark();
    await ann.send(general, 'something else');
    await bob.waitForMessage((m) => m.content === 'something else', { since });
    const wait = bob.waitForMessage((m) => m.content === 'never sent', { timeoutMs: 500, since });
    const error: unknown = await wait.catch((err: unknown) => err);
    expect(error).toBeInstanceOf(WaitTimeoutError);
    expect((error as Error).message).toContain('no MESSAGE_CREATE seen by bob within 500 ms');
    expect((error as Error).message).toContain('"something else" by ann');
  });
});

describe('guilds, DMs, friends and presence', () => {
  it('joins by invite and leaves', async () => {
    const ann = gh.people.get('ann');
    const cat = gh.people.get('cat');
    const invite = await ann.createInvite(general);
    const accepted = await cat.acceptInvite(invite.code);
    expect(accepted.guild?.id).toBe(gh.world.guilds['home']?.id);
    const hello = await cat.send(general, 'hi all');
    expect(hello.author.id).toBe(cat.id);
    await cat.leaveGuild(gh.world.guilds['home']?.id ?? '');
    await expect(cat.send(general, 'still here?')).rejects.toMatchObject({ status: 403 });
  });

  it('sends a direct message', async () => {
    const ann = gh.people.get('ann');
    const bob = gh.people.get('bob');
    await bob.connect();
    const sent = await ann.dm(bob.id, 'psst');
    const seen = await bob.waitForMessage((m) => m.id === sent.id);
    expect(seen.content).toBe('psst');
  });

  it('asks for and accepts a friend request', async () => {
    const ann = gh.people.get('ann');
    const bob = gh.people.get('bob');
    await ann.sendFriendRequest('bob');
    expect(await bob.relationships()).toContainEqual(
      expect.objectContaining({ id: ann.id, type: 3 }),
    );
    await bob.addFriend(ann.id);
    expect(await ann.relationships()).toContainEqual(
      expect.objectContaining({ id: bob.id, type: 1 }),
    );
    // Asking again is the platform's refusal, not a quiet success.
    await expect(ann.sendFriendRequest('nobody-by-that-name')).rejects.toMatchObject({
      code: 80004,
    });
  });

  it('shows a presence the others see', async () => {
    const ann = gh.people.get('ann');
    const bob = gh.people.get('bob');
    await ann.connect();
    await bob.setPresence({ status: 'dnd', activities: [{ name: 'Chess', type: 0 }] });
    const presence = await ann.waitForDispatch<{ user: { id: string }; status: string }>(
      'PRESENCE_UPDATE',
      (d) => d.user.id === bob.id && d.status === 'dnd',
      {},
    );
    expect(presence.status).toBe('dnd');
  });
});
