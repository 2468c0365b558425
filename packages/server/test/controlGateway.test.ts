/**
 * Gateway faults through a real WebSocket (docs/testing.md#faults): a discord.js bot told to
 * reconnect resumes, invalidated identifies anew, unanswered heartbeats make it resume; a raw
 * session sees heartbeats unanswered, dispatches dropped (no sequence number spent) or delayed
 * (in order); every one scoped and counted, and the log keeps what sessions sent and were sent.
 *
 * @module
 */
import { Client, Events, GatewayIntentBits } from 'discord.js';
import { expect, it } from 'vitest';
import { useControlFixture } from './support/controlFixture.js';
import { describeDrivers } from './support/drivers.js';
import { connectGateway, type Frame } from './support/gatewayClient.js';
import { once } from './support/realClients.js';

const GUILDS = 1;
const GUILD_MESSAGES = 1 << 9;

describeDrivers('gateway faults ($driver)', (driver) => {
  // Short heartbeats, so discord.js notices an unanswered one within the test.
  const f = useControlFixture(driver, {
    gateway: { identifiesPerBucket: 1000, heartbeatIntervalMs: 1000 },
  });

  let topics = 0;
  const changeTopic = async () => {
    const topic = `topic ${String(++topics)}`;
    const res = await f.call('PATCH', `/channels/${f.channelId()}`, f.guild.owner.token, { topic });
    expect(res.statusCode).toBe(200);
    return topic;
  };
  const topicOf = (frame: Frame) => (frame.d as { topic?: string }).topic;

  /** Runs `use` with a discord.js client logged in as the bot. */
  async function withBot(use: (client: Client) => Promise<void>): Promise<void> {
    const client = new Client({
      intents: [GatewayIntentBits.Guilds],
      rest: { api: `${f.server.baseUrl}/api` },
      waitGuildTimeout: 10 * 60_000,
    });
    try {
      const ready = once(client, Events.ClientReady);
      await client.login(f.guild.bot.token.replace(/^Bot /, ''));
      await ready;
      await use(client);
    } finally {
      await client.destroy();
    }
  }
  const topicArrives = async (client: Client) => {
    const updated = once(client, Events.ChannelUpdate);
    const topic = await changeTopic();
    const [, after] = (await updated) as [unknown, { topic?: string }];
    expect(after.topic).toBe(topic);
  };

  it('tells discord.js to reconnect (op 7); it resumes and misses nothing', async () => {
    await withBot(async (client) => {
      const resumed = once(client, Events.ShardResume);
      const fault = f.control.faults.add({
        kind: 'gateway',
        type: 'reconnect',
        botId: f.guild.bot.userId,
      });
      expect(fault.fired).toBe(1);
      // Done at once, it is not kept.
      expect(f.control.faults.list()).toEqual([]);
      await resumed;
      await topicArrives(client);
      const resumes = f.control.log
        .entries({ botId: f.guild.bot.userId, kind: 'gatewayCommand' })
        .filter((entry) => entry.kind === 'gatewayCommand' && entry.op === 6);
      expect(resumes).toHaveLength(1);
      expect(resumes[0]).toMatchObject({ d: { token: '[redacted]' } });
    });
  });

  it('refuses a RESUME with op 9 false; discord.js identifies anew', async () => {
    await withBot(async (client) => {
      const refused = f.control.faults.add({
        kind: 'gateway',
        type: 'invalidSession',
        resumable: false,
        on: 'resume',
        times: 1,
      });
      const identified = once(client, Events.ShardReady);
      // A close it may resume after: its RESUME is the one refused.
      f.control.faults.add({ kind: 'gateway', type: 'close', code: 4000 });
      await identified;
      expect(f.control.faults.get(refused.id)).toBeUndefined();
      await topicArrives(client);
    });
  });

  it('invalidates a live session (op 9 false), which then cannot be resumed', async () => {
    const bot = await f.gateway(f.guild.bot.token, GUILDS);
    const ready = (await bot.dispatch('READY')).d as { session_id: string };
    f.control.faults.add({
      kind: 'gateway',
      type: 'invalidSession',
      resumable: false,
      sessionId: ready.session_id,
    });
    expect((await bot.next((frame) => frame.op === 9)).d).toBe(false);
    const again = await connectGateway(f.server.app.gatewayUrl());
    try {
      await again.next((frame) => frame.op === 10);
      again.send(6, { token: f.guild.bot.token, session_id: ready.session_id, seq: 1 });
      expect((await again.next((frame) => frame.op === 9)).d).toBe(false);
    } finally {
      again.raw.terminate();
    }
  });

  it('leaves heartbeats unanswered; discord.js sees a zombie connection and resumes', async () => {
    await withBot(async (client) => {
      const resumed = once(client, Events.ShardResume);
      const fault = f.control.faults.add({
        kind: 'gateway',
        type: 'ignoreHeartbeats',
        botId: f.guild.bot.userId,
      });
      // Until it is removed, no heartbeat is answered; the resumed session's would not be either.
      await once(client, Events.ShardReconnecting);
      expect(f.control.faults.get(fault.id)?.fired).toBeGreaterThan(0);
      f.control.faults.remove(fault.id);
      await resumed;
      await topicArrives(client);
    });
  });

  it('leaves as many heartbeats unanswered as its times, and only its bot’s', async () => {
    const bot = await f.gateway(f.guild.bot.token, GUILDS);
    const person = await f.gateway(f.person.token);
    f.control.faults.add({
      kind: 'gateway',
      type: 'ignoreHeartbeats',
      botId: f.guild.bot.userId,
      times: 1,
    });
    const acks = (client: typeof bot) => client.frames.filter((frame) => frame.op === 11).length;
    person.send(1, null);
    await person.next((frame) => frame.op === 11);
    bot.send(1, null);
    bot.send(1, null);
    await bot.next((frame) => frame.op === 11);
    // The second heartbeat's answer came, the first's never: frames keep their order.
    expect(acks(bot)).toBe(1);
    expect(f.control.faults.list()).toEqual([]);
  });

  it('drops a dispatch without spending a sequence number, and delays one in order', async () => {
    const bot = await f.gateway(f.guild.bot.token, GUILDS | GUILD_MESSAGES);
    const { session_id: sessionId } = (await bot.dispatch('READY')).d as { session_id: string };
    const last = () => bot.frames.filter((frame) => frame.op === 0).at(-1)?.s ?? 0;
    const before = last();
    const dropped = f.control.faults.add({
      kind: 'gateway',
      type: 'dropDispatches',
      events: ['CHANNEL_UPDATE'],
      sessionId,
      times: 1,
    });
    await changeTopic();
    const kept = await changeTopic();
    const update = await bot.next((frame) => frame.t === 'CHANNEL_UPDATE');
    expect(topicOf(update)).toBe(kept);
    expect(update.s).toBe(before + 1);
    expect(f.control.faults.get(dropped.id)).toBeUndefined();

    const delayed = f.control.faults.add({
      kind: 'gateway',
      type: 'delayDispatches',
      ms: 100,
      events: ['CHANNEL_UPDATE'],
      sessionId,
      times: 1,
    });
    const late = await changeTopic();
    const sent = await f.call('POST', `/channels/${f.channelId()}/messages`, f.guild.owner.token, {
      content: 'after the topic',
    });
    expect(sent.statusCode).toBe(200);
    const created = await bot.dispatch('MESSAGE_CREATE');
    const updates = bot.frames.filter((frame) => frame.t === 'CHANNEL_UPDATE');
    // The delayed update still came first, and the message after it.
    expect(topicOf(updates.at(-1) ?? created)).toBe(late);
    expect(bot.frames.indexOf(updates.at(-1) ?? created)).toBeLessThan(bot.frames.indexOf(created));
    expect(created.s).toBe((updates.at(-1)?.s ?? 0) + 1);
    expect(f.control.faults.get(delayed.id)).toBeUndefined();

    // The log has the dispatches the bot was sent, with their sequence numbers.
    const logged = f.control.log
      .entries({ botId: f.guild.bot.userId, kind: 'dispatch' })
      .filter(
        (entry) =>
          entry.kind === 'dispatch' &&
          entry.sessionId === sessionId &&
          entry.t === 'CHANNEL_UPDATE',
      );
    expect(logged.map((entry) => (entry.kind === 'dispatch' ? entry.s : 0))).toEqual([
      before + 1,
      updates.at(-1)?.s,
    ]);
  });

  it('closes a session with a final code, which ends it', async () => {
    const bot = await f.gateway(f.guild.bot.token, GUILDS);
    const ready = bot.frames.find((frame) => frame.t === 'READY');
    const sessionId = (ready?.d as { session_id: string }).session_id;
    const fault = f.control.faults.add({ kind: 'gateway', type: 'close', code: 4004, sessionId });
    expect(fault.fired).toBe(1);
    expect((await bot.closed).code).toBe(4004);
    expect(f.server.app.gateway.sessionsOf(f.guild.bot.userId).map((s) => s.id)).not.toContain(
      sessionId,
    );
  });
});
