import { describe, expect, it } from 'vitest';
import { ClientStatus } from '../src/node.js';
import { connectReady, describeDrivers, useSdkWorld } from './support.js';

describeDrivers('SDK connection ($driver)', (driver) => {
  const world = useSdkWorld(driver);

  it('goes Connecting → Connected → Ready with a provisional token', async () => {
    const ada = await world().player('Ada');
    const client = await world().client(ada);
    const seen: ClientStatus[] = [];
    const ready = connectReady(client);
    const inner = client;
    // connectReady installed its callback first; record what follows through the log instead.
    inner.addLogCallback((line) => {
      const m = /^Status: (\w+)/.exec(line);
      if (m?.[1] !== undefined) seen.push(ClientStatus[m[1] as keyof typeof ClientStatus]);
    });
    await ready;
    expect(seen).toEqual([ClientStatus.Connected, ClientStatus.Ready]);
    expect(client.getApplicationId()).toBe(world().dev.applicationId);
  });
});

describe('SDK connection without a server', () => {
  it('is not Ready before connect()', async () => {
    const { Client } = await import('../src/node.js');
    expect(new Client({ apiBase: 'http://127.0.0.1:9/api/v10' }).getStatus()).toBe(
      ClientStatus.Disconnected,
    );
  });
});
