/**
 * The local WebSocket transport of `guildhall rpc`: `discord-rpc` with its `websocket`
 * transport, unchanged, finds the daemon on the first port of 6463–6472 that answers, sees READY
 * and sets an activity the player's friend receives; a connection with an `Origin` (a web page)
 * is closed with 4001, an unknown client id with 4000, another encoding with 4005.
 */
import DiscordRpc from 'discord-rpc';
import { RpcCloseCodes } from '@guildhall/protocol';
import WebSocket from 'ws';
import { expect, it } from 'vitest';
import { RPC_WS_PORTS } from '../src/rpc/wsTransport.js';
import { describeDrivers } from './support/drivers.js';
import { useRpcWorld } from './support/rpcFixture.js';

/** How a raw WebSocket to the daemon ends: its close code and reason. */
function closeOf(url: string, headers: Record<string, string> = {}) {
  const ws = new WebSocket(url, { headers });
  return new Promise<{ code: number; reason: string }>((resolve) => {
    ws.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
    });
    ws.on('error', () => undefined);
  });
}

describeDrivers('RPC over the local WebSocket on $driver', (driver) => {
  const world = useRpcWorld(driver, { wsPorts: RPC_WS_PORTS });

  it('serves discord-rpc’s websocket transport: READY, rich presence to friends', async () => {
    const port = world.rpc.daemon.wsPort;
    expect(port).not.toBeNull();
    const client = new DiscordRpc.Client({ transport: 'websocket' });
    client.on('error', () => undefined);
    await client.login({ clientId: world.dev.applicationId });
    expect(client.user).toMatchObject({ id: world.player.userId });
    const seen = world.watcher.frames.length;
    await client.setActivity({ details: 'Over the socket', instance: false });
    const shown = await world.playerPresence(seen, (d) => d.activities.length > 0);
    expect(shown.activities).toEqual([
      expect.objectContaining({
        application_id: world.dev.applicationId,
        details: 'Over the socket',
      }),
    ]);
    await client.destroy();
  });

  it('closes a web page’s connection (4001), an unknown client (4000), ETF (4005)', async () => {
    const base = `ws://127.0.0.1:${String(world.rpc.daemon.wsPort)}/?v=1`;
    const app = world.dev.applicationId;
    expect(
      await closeOf(`${base}&client_id=${app}&encoding=json`, { origin: 'https://game.example' }),
    ).toEqual({ code: RpcCloseCodes.INVALID_ORIGIN, reason: 'Invalid Origin' });
    expect(await closeOf(`${base}&client_id=123456789012345678&encoding=json`)).toMatchObject({
      code: RpcCloseCodes.INVALID_CLIENTID,
    });
    expect(await closeOf(`${base}&client_id=${app}&encoding=etf`)).toMatchObject({
      code: RpcCloseCodes.INVALID_ENCODING,
    });
  });
});
