import { expect, it } from 'vitest';
import { describeDrivers } from '../../../test/support/drivers.js';
import { useLobbyFixture } from '../../../test/support/lobbyFixture.js';
import { SECOND_MS } from '../../domain/time.js';
import { LOBBY_SWEEP_INTERVAL_MS, startLobbySweeper, sweepIdleLobbies } from './sweep.js';

describeDrivers('idle lobbies on $driver', (driver) => {
  const fx = useLobbyFixture(driver);
  const { call } = fx;
  const get = (id: string) => call(`GET /lobbies/${id}`, fx.bot());

  it('treats an empty lobby as gone once its idle timeout has run out, and the sweep deletes it', async () => {
    const res = await call('POST /lobbies', fx.bot(), { idle_timeout_seconds: 5 });
    const { id } = res.json<{ id: string }>();
    fx.clock.advance(5 * SECOND_MS - 1);
    expect((await get(id)).statusCode).toBe(200);
    expect(await sweepIdleLobbies({ storage: fx.app.storage, clock: fx.clock })).toBe(0);
    fx.clock.advance(1);
    expect((await get(id)).json()).toMatchObject({ code: 10031 });
    expect(await fx.app.storage.lobbies.findById(id)).not.toBeNull();
    expect(await sweepIdleLobbies({ storage: fx.app.storage, clock: fx.clock })).toBe(1);
    expect(await fx.app.storage.lobbies.findById(id)).toBeNull();
  });

  it('counts the idle timeout from when the last member left; a join in time keeps the lobby', async () => {
    const { ann } = fx.players;
    const { id } = (
      await call('POST /lobbies', fx.bot(), { idle_timeout_seconds: 10, members: [{ id: ann.id }] })
    ).json<{ id: string }>();
    fx.clock.advance(60 * SECOND_MS);
    expect((await get(id)).statusCode).toBe(200);
    await call(`DELETE /lobbies/${id}/members/@me`, ann.bearer);
    fx.clock.advance(9 * SECOND_MS);
    await call(`PUT /lobbies/${id}/members/${ann.id}`, fx.bot(), {});
    fx.clock.advance(60 * SECOND_MS);
    expect((await get(id)).statusCode).toBe(200);
    await call(`DELETE /lobbies/${id}/members/${ann.id}`, fx.bot());
    fx.clock.advance(10 * SECOND_MS);
    expect((await get(id)).statusCode).toBe(404);
    // A PUT to a lobby that idled away is refused, not revived.
    expect((await call(`PUT /lobbies/${id}/members/${ann.id}`, fx.bot(), {})).json()).toMatchObject(
      {
        code: 10031,
      },
    );
  });

  it('runs on the injected timers until stopped', async () => {
    const scheduled: { fn: () => void; ms: number }[] = [];
    const timers = {
      schedule: (fn: () => void, ms: number) => {
        scheduled.push({ fn, ms });
        return () => undefined;
      },
    };
    const { id } = (await call('POST /lobbies', fx.bot(), { idle_timeout_seconds: 5 })).json<{
      id: string;
    }>();
    fx.clock.advance(5 * SECOND_MS);
    const errors: unknown[] = [];
    const sweeper = startLobbySweeper({
      storage: fx.app.storage,
      clock: fx.clock,
      timers,
      onError: (err) => errors.push(err),
    });
    expect(scheduled.map((s) => s.ms)).toEqual([0]);
    scheduled[0]?.fn();
    await expect.poll(() => fx.app.storage.lobbies.findById(id)).toBeNull();
    await expect.poll(() => scheduled.map((s) => s.ms)).toEqual([0, LOBBY_SWEEP_INTERVAL_MS]);
    await sweeper.stop();
    expect(errors).toEqual([]);
  });
});
