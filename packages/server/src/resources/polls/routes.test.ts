import { expect, it } from 'vitest';
import { HOUR_MS } from '../../domain/time.js';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useThreadFixture } from '../../../test/support/threadFixture.js';

interface PollMessage {
  id: string;
  author: { id: string };
  poll: {
    expiry: string;
    allow_multiselect: boolean;
    answers: { answer_id: number; poll_media: { text: string } }[];
    results: {
      is_finalized: boolean;
      answer_counts: { id: number; count: number; me_voted: boolean }[];
    };
  };
}

const POLL = {
  question: { text: 'Lunch?' },
  answers: [
    { poll_media: { text: 'Pizza', emoji: { name: '🍕' } } },
    { poll_media: { text: 'Soup' } },
    { poll_media: { text: 'Both' } },
  ],
  duration: 2,
};

describeDrivers('polls on $driver', (driver) => {
  const fx = useThreadFixture(driver);

  it('creates a poll with a message, counts votes, lists voters and ends early', async () => {
    const text = await fx.channel('food');
    const created = await fx.post(fx.owner.token, text.id, { poll: POLL });
    expect(created.statusCode).toBe(200);
    const message = created.json<PollMessage>();
    expect(message.poll).toMatchObject({
      allow_multiselect: false,
      answers: [
        { answer_id: 1, poll_media: { text: 'Pizza' } },
        { answer_id: 2, poll_media: { text: 'Soup' } },
        { answer_id: 3, poll_media: { text: 'Both' } },
      ],
      results: { is_finalized: false },
    });
    expect(Date.parse(message.poll.expiry)).toBe(fx.clock.now() + 2 * HOUR_MS);
    const vote = (token: string, answer_ids: number[]) =>
      fx.call('PUT', `/channels/${text.id}/polls/${message.id}/answers/@me`, {
        auth: token,
        payload: { answer_ids },
        spec: false,
      });
    expect((await vote(fx.carol.token, [1])).statusCode).toBe(204);
    expect((await vote(fx.dave.token, [1])).statusCode).toBe(204);
    expect((await vote(fx.carol.token, [2])).statusCode).toBe(204);
    const tooMany = await vote(fx.dave.token, [1, 2]);
    expect(tooMany.json()).toMatchObject({ code: 50035 });
    const botVote = await vote(fx.bot.token, [1]);
    expect(botVote.statusCode).toBe(403);
    expect(botVote.json()).toMatchObject({ code: 20001 });

    const seen = await fx.call('GET', `/channels/${text.id}/messages/${message.id}`, {
      auth: fx.carol.token,
    });
    expect(seen.json<PollMessage>().poll.results.answer_counts).toEqual([
      { id: 1, count: 1, me_voted: false },
      { id: 2, count: 1, me_voted: true },
      { id: 3, count: 0, me_voted: false },
    ]);
    await expect.poll(() => fx.events.ofType('MESSAGE_POLL_VOTE_REMOVE').length).toBe(1);
    expect(
      fx.events.events
        .filter((e) => e.type.startsWith('MESSAGE_POLL_VOTE'))
        .map((e) => [e.type, (e.data as { user_id: string; answer_id: number }).answer_id]),
    ).toEqual([
      ['MESSAGE_POLL_VOTE_ADD', 1],
      ['MESSAGE_POLL_VOTE_ADD', 1],
      ['MESSAGE_POLL_VOTE_REMOVE', 1],
      ['MESSAGE_POLL_VOTE_ADD', 2],
    ]);

    const voters = (answer: number | string) =>
      fx.call('GET', `/channels/${text.id}/polls/${message.id}/answers/${String(answer)}`, {
        auth: fx.bot.token,
      });
    const ones = await voters(1);
    expect(ones.json<{ users: { id: string }[] }>().users.map((u) => u.id)).toEqual([
      fx.dave.userId,
    ]);
    expect((await voters(2)).json<{ users: { id: string }[] }>().users.map((u) => u.id)).toEqual([
      fx.carol.userId,
    ]);
    expect((await voters(11)).json()).toMatchObject({ code: 50035 });

    const expire = (token: string, id = message.id) =>
      fx.call('POST', `/channels/${text.id}/polls/${id}/expire`, { auth: token });
    expect((await expire(fx.carol.token)).json()).toMatchObject({ code: 50005 });
    const ended = await expire(fx.owner.token);
    expect(ended.statusCode).toBe(200);
    expect(ended.json<PollMessage>().poll.results.is_finalized).toBe(true);
    expect((await expire(fx.owner.token)).json()).toMatchObject({ code: 520001 });
    expect((await vote(fx.dave.token, [3])).json()).toMatchObject({ code: 520001 });
    const plain = await fx.post(fx.owner.token, text.id, { content: 'no poll' });
    const notPoll = await expire(fx.owner.token, plain.json<{ id: string }>().id);
    expect(notPoll.json()).toMatchObject({ code: 520006 });
  });

  it('ends polls at their expiry and refuses bad polls', async () => {
    const text = await fx.channel('later');
    const created = await fx.post(fx.owner.token, text.id, {
      poll: { ...POLL, duration: 1, allow_multiselect: true },
    });
    const id = created.json<PollMessage>().id;
    await fx.call('PUT', `/channels/${text.id}/polls/${id}/answers/@me`, {
      auth: fx.carol.token,
      payload: { answer_ids: [1, 3] },
      spec: false,
    });
    expect(await fx.app.services.polls.endExpired(100)).toBe(0);
    fx.clock.advance(HOUR_MS);
    expect(await fx.app.services.polls.endExpired(100)).toBe(1);
    await expect
      .poll(() =>
        fx.events.ofType('MESSAGE_UPDATE').some((e) => (e.data as { id: string }).id === id),
      )
      .toBe(true);
    const update = fx.events
      .ofType('MESSAGE_UPDATE')
      .find((e) => (e.data as { id: string }).id === id);
    expect(update?.data).toMatchObject({
      id,
      poll: {
        results: {
          is_finalized: true,
          answer_counts: [
            { id: 1, count: 1 },
            { id: 2, count: 0 },
            { id: 3, count: 1 },
          ],
        },
      },
    });

    for (const poll of [
      { ...POLL, answers: [] },
      { ...POLL, duration: 769 },
      { ...POLL, question: { text: '' } },
      { ...POLL, answers: [{ poll_media: { text: 'x'.repeat(56) } }] },
    ]) {
      const refused = await fx.post(fx.owner.token, text.id, { poll });
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ code: 50035 });
    }
    const unknown = await fx.call('GET', `/channels/${text.id}/polls/1/answers/1`, {
      auth: fx.owner.token,
    });
    expect(unknown.json()).toMatchObject({ code: 10008 });
  });
});
