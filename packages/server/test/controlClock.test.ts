/**
 * The platform clock through the real paths (docs/testing.md#time): what a test moves with
 * `app.control.clock` is what invites, member timeouts, interactions, polls and snowflakes read,
 * and the waits it passes fire; the gateway's heartbeats stay on real time.
 *
 * @module
 */
import { deconstructSnowflake } from '@guildhall/protocol';
import { expect, it } from 'vitest';
import { MINUTE_MS } from '../src/domain/time.js';
import { useControlFixture } from './support/controlFixture.js';
import { describeDrivers } from './support/drivers.js';
import { firedTimers } from './support/firedTimers.js';
import type { Frame } from './support/gatewayClient.js';

const GUILDS = 1;

describeDrivers('the platform clock ($driver)', (driver) => {
  // The gateway's own waits (its sweep) run when the test fires them.
  const gatewayTimers = firedTimers();
  const f = useControlFixture(driver, {
    gatewayTimers: gatewayTimers.timers,
    gateway: { identifiesPerBucket: 1000 },
  });

  it('expires an invite when advanced past its max_age', async () => {
    await f.control.clock.freeze();
    const made = await f.call('POST', `/channels/${f.channelId()}/invites`, f.guild.bot.token, {
      max_age: 3600,
    });
    expect(made.statusCode).toBe(200);
    const code = made.json<{ code: string }>().code;
    await f.control.clock.advance('59m');
    expect((await f.call('GET', `/invites/${code}`, f.person.token)).statusCode).toBe(200);
    await f.control.clock.advance('1m');
    const gone = await f.call('GET', `/invites/${code}`, f.person.token);
    expect(gone.json()).toMatchObject({ code: 10006 });
  });

  it('ends a member timeout when advanced past it', async () => {
    const clock = f.control.clock;
    await clock.freeze();
    const until = new Date(clock.now() + 10 * MINUTE_MS).toISOString();
    const timedOut = await f.call(
      'PATCH',
      `/guilds/${f.guild.guildId}/members/${f.person.userId}`,
      f.guild.bot.token,
      { communication_disabled_until: until },
    );
    expect(timedOut.statusCode).toBe(200);
    const send = () =>
      f.call('POST', `/channels/${f.channelId()}/messages`, f.person.token, { content: 'hi' });
    expect((await send()).json()).toMatchObject({ code: 50013 });
    await clock.advance('10m');
    expect((await send()).statusCode).toBe(200);
    // The clock goes back after the test: so does the timeout.
    await f.call(
      'PATCH',
      `/guilds/${f.guild.guildId}/members/${f.person.userId}`,
      f.guild.bot.token,
      {
        communication_disabled_until: null,
      },
    );
  });

  it('fails an unanswered interaction at 3 s and ends its token at 15 min', async () => {
    const clock = f.control.clock;
    await clock.freeze();
    const command = await f.command('late');
    const bot = await f.gateway(f.guild.bot.token, GUILDS);
    const person = await f.gateway(f.guild.owner.token);
    await f.invoke(f.guild.owner, command);
    await bot.dispatch('INTERACTION_CREATE');
    // Frozen, the 3-second deadline never comes by itself; moved past it, it fires.
    await clock.advance('2999ms');
    expect(person.frames.some((frame) => frame.t === 'INTERACTION_FAILURE')).toBe(false);
    await clock.advance('1ms');
    expect((await person.dispatch('INTERACTION_FAILURE')).d).toMatchObject({
      nonce: 'nonce-late',
    });

    // A deferred one keeps its token for 15 minutes of the platform's time.
    const answered = await f.command('answered');
    await f.invoke(f.guild.owner, answered);
    const created = await bot.next(
      (frame: Frame) =>
        frame.t === 'INTERACTION_CREATE' &&
        (frame.d as { data: { name: string } }).data.name === 'answered',
    );
    const { id, token } = created.d as { id: string; token: string };
    const deferred = await f.call('POST', `/interactions/${id}/${token}/callback`, undefined, {
      type: 5,
    });
    expect(deferred.statusCode).toBe(204);
    // Made with the interaction's token alone, the callback is logged as the bot's app's.
    const callbacks = f.control.log
      .entries({ botId: f.guild.bot.applicationId, kind: 'http' })
      .filter((entry) => entry.kind === 'http' && entry.route?.endsWith('/callback') === true);
    expect(callbacks).toMatchObject([{ userId: null, status: 204, request: { type: 5 } }]);
    const followup = () =>
      f.call('POST', `/webhooks/${f.guild.bot.applicationId}/${token}`, undefined, {
        content: 'done',
      });
    await clock.advance('14m');
    expect((await followup()).statusCode).toBe(200);
    // At 15 minutes the token ends, and the sweep the move fires deletes the interaction.
    await clock.advance('1m');
    expect((await followup()).json()).toMatchObject({ code: 10015 });
  });

  it('ends a poll when advanced past its expiry, by the sweep the move fires', async () => {
    const clock = f.control.clock;
    await clock.freeze();
    const posted = await f.call('POST', `/channels/${f.channelId()}/messages`, f.guild.bot.token, {
      poll: {
        question: { text: 'Lunch?' },
        answers: [{ poll_media: { text: 'Pizza' } }, { poll_media: { text: 'Soup' } }],
        duration: 1,
      },
    });
    const message = posted.json<{ id: string }>();
    const read = async () =>
      (
        await f.call('GET', `/channels/${f.channelId()}/messages/${message.id}`, f.person.token)
      ).json<{ poll: { results: { is_finalized: boolean } } }>().poll.results.is_finalized;
    await clock.advance('59m');
    expect(await read()).toBe(false);
    await clock.advance('1m');
    expect(await read()).toBe(true);
  });

  it('dates snowflakes by the platform clock', async () => {
    // Two days on (years on, the sweep the move fires would end the fixture's session tokens).
    const at = Math.floor(Date.now() / 1000) * 1000 + 2 * 24 * 3600_000 + 123;
    await f.control.clock.freeze(at);
    const posted = await f.call('POST', `/channels/${f.channelId()}/messages`, f.person.token, {
      content: 'from the future',
    });
    const { id, timestamp } = posted.json<{ id: string; timestamp: string }>();
    expect(deconstructSnowflake(id).timestampMs).toBe(at);
    expect(Date.parse(timestamp)).toBe(at);
  });

  it('keeps heartbeats on real time: an hour advanced closes no session', async () => {
    const bot = await f.gateway(f.guild.bot.token, GUILDS);
    await f.control.clock.advance('1h');
    // The gateway's sweep runs now, after the move: it judges heartbeats by the real clock.
    gatewayTimers.fire();
    const acks = bot.frames.filter((frame) => frame.op === 11).length;
    bot.send(1, null);
    await bot.next((frame) => frame.op === 11 && bot.frames.indexOf(frame) >= acks);
    expect(bot.raw.readyState).toBe(bot.raw.OPEN);
  });
});
