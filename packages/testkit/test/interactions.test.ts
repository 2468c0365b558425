/**
 * A person's interactions through the kit, against a bare bot: slash commands with typed options
 * and subcommands, context menus, autocomplete, buttons, selects, modals, a deferred reply, and an
 * interaction the bot leaves unanswered until the platform's clock passes the 3-second rule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  GuildhallApiError,
  InteractionFailedError,
  startGuildhall,
  type Guildhall,
  type Person,
  type WorldFile,
} from '../src/index.js';
import { connectRawBot, type RawBot } from './support/rawBot.js';

const STRING = 3;
const WORLD: WorldFile = {
  people: { ann: null, bob: null },
  applications: {
    helper: {
      owner: 'ann',
      commands: {
        echo: {
          description: 'Says it back',
          options: [
            { type: STRING, name: 'text', description: 'What', required: true },
            { type: 11, name: 'file', description: 'A file' },
          ],
        },
        config: {
          description: 'Settings',
          options: [
            {
              type: 1,
              name: 'set',
              description: 'Sets one',
              options: [
                { type: 4, name: 'level', description: 'Level', required: true },
                { type: 5, name: 'loud', description: 'Loud' },
                { type: 6, name: 'who', description: 'Who' },
              ],
            },
          ],
        },
        find: {
          description: 'Finds',
          options: [{ type: STRING, name: 'q', description: 'Query', autocomplete: true }],
        },
        form: { description: 'A form' },
        slow: { description: 'Thinks first' },
        silent: { description: 'Never answered' },
        Inspect: { type: 2 },
        Quote: { type: 3 },
      },
    },
  },
  guilds: {
    home: {
      owner: 'ann',
      channels: { general: { type: 'text' } },
      members: { bob: null },
      bots: { helper: null },
    },
  },
};

let gh: Guildhall;
let bot: RawBot;
let ann: Person;
let general = '';

beforeAll(async () => {
  gh = await startGuildhall({ world: WORLD });
  const helper = gh.world.applications['helper'];
  if (helper === undefined) throw new Error('the world has no helper');
  bot = await connectRawBot(gh, helper.botToken);
  ann = gh.people.get('ann');
  general = gh.world.guilds['home']?.channels['general'] ?? '';
});

afterAll(async () => {
  bot.close();
  await gh.close();
});

describe('commands', () => {
  it('sends typed options and an attachment, and reads the reply', async () => {
    const invoked = await ann.slash(general, 'echo', {
      text: 'hello',
      file: { name: 'note.txt', data: 'a note', contentType: 'text/plain' },
    });
    const received = await bot.interaction(2);
    const data = received.data as {
      options: { name: string; type: number; value: string }[];
      resolved: { attachments: Record<string, { filename: string }> };
    };
    expect(data.options).toEqual([
      { name: 'text', type: STRING, value: 'hello' },
      { name: 'file', type: 11, value: expect.any(String) as string },
    ]);
    const fileId = data.options[1]?.value ?? '';
    expect(data.resolved.attachments[fileId]?.filename).toBe('note.txt');
    expect((await bot.respond(received, { type: 4, data: { content: 'hello' } })).status).toBe(204);
    const reply = await invoked.reply();
    expect(reply).toMatchObject({
      content: 'hello',
      interaction_metadata: { user: { id: ann.id } },
    });
  });

  it('nests subcommand options with their types', async () => {
    const bob = gh.people.get('bob');
    await ann.slash(general, 'config set', { level: 3, loud: true, who: bob });
    const received = await bot.interaction(2);
    expect(received.data['options']).toEqual([
      {
        name: 'set',
        type: 1,
        options: [
          { name: 'level', type: 4, value: 3 },
          { name: 'loud', type: 5, value: true },
          { name: 'who', type: 6, value: bob.id },
        ],
      },
    ]);
    await bot.respond(received, { type: 4, data: { content: 'set' } });
  });

  it('refuses what the command does not take, naming what it does', async () => {
    await expect(ann.slash(general, 'echo', { txt: 'typo' })).rejects.toThrow(
      '/echo has no option "txt"; it has "text", "file"',
    );
    await expect(ann.slash(general, 'config set', { level: 'three' })).rejects.toThrow(
      'takes a number',
    );
    await expect(ann.slash(general, 'nope')).rejects.toThrow('has no command "nope"');
  });

  it('invokes user and message commands on their targets', async () => {
    const bob = gh.people.get('bob');
    await ann.userCommand(general, 'Inspect', bob);
    const onUser = await bot.interaction(2);
    expect(onUser.data).toMatchObject({ name: 'Inspect', type: 2, target_id: bob.id });
    await bot.respond(onUser, { type: 4, data: { content: 'a person' } });

    const said = await bob.send(general, 'quotable');
    await ann.messageCommand('Quote', said);
    const onMessage = await bot.interaction(2);
    expect(onMessage.data).toMatchObject({ name: 'Quote', type: 3, target_id: said.id });
    await bot.respond(onMessage, { type: 4, data: { content: 'quoted' } });
  });

  it('answers autocomplete with choices', async () => {
    const choices = ann.autocomplete(general, 'find', { q: 'ap', focused: 'q' });
    const asked = await bot.interaction(4);
    expect(asked.data['options']).toEqual([
      { name: 'q', type: STRING, value: 'ap', focused: true },
    ]);
    await bot.respond(asked, { type: 8, data: { choices: [{ name: 'Apple', value: 'apple' }] } });
    expect(await choices).toEqual([{ name: 'Apple', value: 'apple' }]);
  });

  it('waits for a deferred reply until the bot edits it', async () => {
    const invoked = await ann.slash(general, 'slow');
    const received = await bot.interaction(2);
    await bot.respond(received, { type: 5 });
    const thinking = await invoked.reply({ deferred: true });
    expect(thinking.flags).toBe(128);
    const edit = await fetch(
      `${gh.apiUrl}/v10/webhooks/${received.application_id}/${received.token}/messages/@original`,
      {
        method: 'PATCH',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ content: 'done thinking' }),
      },
    );
    expect(edit.status).toBe(200);
    expect((await invoked.reply()).content).toBe('done thinking');
  });

  it('fails an unanswered interaction once the clock passes 3 seconds', async () => {
    await gh.clock.freeze();
    try {
      const invoked = await ann.slash(general, 'silent');
      await bot.interaction(2);
      await gh.clock.advance('4s');
      await expect(invoked.outcome()).rejects.toBeInstanceOf(InteractionFailedError);
    } finally {
      gh.clock.resume();
    }
  });
});

describe('components and modals', () => {
  it('clicks a button and selects, and sees the message updated', async () => {
    const posted = await bot.request(`POST /channels/${general}/messages`, {
      content: 'pick',
      components: [
        { type: 1, components: [{ type: 2, style: 1, label: 'Go', custom_id: 'go' }] },
        {
          type: 1,
          components: [
            {
              type: 3,
              custom_id: 'fruit',
              options: [
                { label: 'Apple', value: 'apple' },
                { label: 'Pear', value: 'pear' },
              ],
            },
          ],
        },
      ],
    });
    const { id } = (await posted.json()) as { id: string };
    const message = await ann.waitForMessage((m) => m.id === id);
    const clicked = await ann.click(message, 'go');
    const click = await bot.interaction(3);
    expect(click.data).toEqual({ component_type: 2, custom_id: 'go' });
    await bot.respond(click, { type: 7, data: { content: 'went', components: [] } });
    expect((await clicked.update()).content).toBe('went');

    await expect(ann.click(message, 'gone')).rejects.toThrow('has no component "gone"');
  });

  it('submits a modal the bot showed, and a refused submission is the platform error', async () => {
    const invoked = await ann.slash(general, 'form');
    const received = await bot.interaction(2);
    await bot.respond(received, {
      type: 9,
      data: {
        custom_id: 'feedback',
        title: 'Feedback',
        components: [
          {
            type: 18,
            label: 'Summary',
            component: { type: 4, custom_id: 'summary', style: 1, max_length: 20 },
          },
        ],
      },
    });
    const modal = await invoked.modal();
    expect(modal).toMatchObject({ custom_id: 'feedback', title: 'Feedback' });
    const tooLong = ann.submitModal(modal, { summary: 'x'.repeat(21) });
    await expect(tooLong).rejects.toBeInstanceOf(GuildhallApiError);
    await expect(tooLong).rejects.toMatchObject({ status: 400 });
    await ann.submitModal(modal, { summary: 'great' });
    const submitted = await bot.interaction(5);
    expect(submitted.data).toMatchObject({
      custom_id: 'feedback',
      components: [{ type: 18, component: { type: 4, custom_id: 'summary', value: 'great' } }],
    });
    await bot.respond(submitted, { type: 4, data: { content: 'thanks' } });
  });
});
