/**
 * Real RPC libraries against `guildhall rpc` (the daemon runRpc starts): `@xhayper/discord-rpc`
 * and `discord-rpc`, unchanged, find the socket through XDG_RUNTIME_DIR, see READY, set an
 * activity the player's friend receives as PRESENCE_UPDATE on a real gateway WebSocket, go
 * through AUTHORIZE → /oauth2/token → AUTHENTICATE, and their activity goes when they leave.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client as XhayperClient } from '@xhayper/discord-rpc';
import WebSocket from 'ws';
import DiscordRpc from 'discord-rpc';
import { ActivityFlags } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import { collectChild } from './support/children.js';
import { useRpcWorld, withEnv } from './support/rpcFixture.js';
import type { RunRpcOptions } from '../src/rpc/index.js';

/** docs/rpc.md's example: rich presence from a native game with @xhayper/discord-rpc. */
const EXAMPLE = fileURLToPath(new URL('../../../examples/rpc-presence.js', import.meta.url));

interface TokenAnswer {
  access_token: string;
  scope: string;
}

describeDrivers('RPC over IPC with real client libraries on $driver', (driver) => {
  const world = useRpcWorld(driver);

  it('@xhayper/discord-rpc: READY, login with AUTHORIZE and AUTHENTICATE, rich presence', async () => {
    const { dev, player } = world;
    const client = new XhayperClient({
      clientId: dev.applicationId,
      clientSecret: dev.clientSecret,
    });
    // Its token exchange goes through its REST client, whose API base it offers no option for.
    (client as unknown as { rest: { options: { api: string } } }).rest.options.api =
      `${world.server.baseUrl}/api`;
    await withEnv('XDG_RUNTIME_DIR', world.dir, () => client.connect());
    expect(client.user?.id).toBe(player.userId);
    expect(client.user?.username).toBe(world.player.username);
    expect(world.rpc.daemon.path).toBe(`${world.dir}/discord-ipc-0`);

    await client.login({ scopes: ['identify', 'rpc'] });
    expect(client.application).toMatchObject({ id: dev.applicationId, name: 'dev app' });
    expect(client.user?.id).toBe(player.userId);
    // The consent was given once: it now covers a prompt=none request as well.
    const silent = await client.request('AUTHORIZE', {
      client_id: dev.applicationId,
      scopes: ['identify'],
      prompt: 'none',
    });
    expect(silent.data).toMatchObject({ code: expect.any(String) as unknown });

    const seen = world.watcher.frames.length;
    await client.user?.setActivity({
      details: 'Ranked match',
      state: 'Round 3 of 5',
      startTimestamp: 1_760_000_000_000,
      largeImageKey: 'map_desert',
      partyId: 'party-1',
      partySize: 2,
      partyMax: 4,
    });
    const shown = await world.playerPresence(seen, (d) => d.activities.length > 0);
    expect(shown.activities).toEqual([
      expect.objectContaining({
        name: 'dev app',
        type: 0,
        application_id: dev.applicationId,
        details: 'Ranked match',
        state: 'Round 3 of 5',
        timestamps: { start: 1_760_000_000_000 },
        assets: { large_image: 'map_desert' },
        party: { id: 'party-1', size: [2, 4] },
      }),
    ]);

    const left = world.watcher.frames.length;
    await client.destroy();
    const cleared = await world.playerPresence(left);
    expect(cleared.activities).toEqual([]);
  });

  it('discord-rpc: READY, AUTHORIZE, the backend exchange, AUTHENTICATE, guilds, presence', async () => {
    const { dev, player } = world;
    const client = new DiscordRpc.Client({ transport: 'ipc' });
    // After an AUTHORIZE the library looks for the old local HTTP endpoint (ports 6463–6472,
    // which Guildhall does not serve) and reports that it found none as an 'error' event.
    const libraryErrors: unknown[] = [];
    client.on('error', (err: unknown) => libraryErrors.push(err));
    await withEnv('XDG_RUNTIME_DIR', world.dir, () =>
      client.login({ clientId: dev.applicationId }),
    );
    expect(client.user).toMatchObject({ id: player.userId, username: player.username });

    // The library's own exchange sends redirect_uri=undefined: the app's backend exchanges the
    // code itself, as docs/rpc.md shows.
    const { code } = (await client.request('AUTHORIZE', {
      client_id: dev.applicationId,
      scopes: ['identify', 'rpc'],
    })) as { code: string };
    const exchanged = await fetch(`${world.server.baseUrl}/api/v10/oauth2/token`, {
      method: 'POST',
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: dev.applicationId,
        client_secret: dev.clientSecret,
      }),
    });
    expect(exchanged.status).toBe(200);
    const token = (await exchanged.json()) as TokenAnswer;
    await client.login({
      clientId: dev.applicationId,
      accessToken: token.access_token,
      scopes: ['identify', 'rpc'],
    });
    expect(client.application).toMatchObject({ id: dev.applicationId });
    expect(client.user).toMatchObject({ id: player.userId });
    // With the rpc scope, the person's guilds (ada is in none).
    expect(await client.getGuilds()).toEqual({ guilds: [] });

    const seen = world.watcher.frames.length;
    const answer = (await client.setActivity({
      details: 'Exploring',
      state: 'Solo',
      instance: false,
    })) as Record<string, unknown>;
    expect(answer).toMatchObject({ name: 'dev app', application_id: dev.applicationId });
    const shown = await world.playerPresence(seen, (d) => d.activities.length > 0);
    expect(shown.activities).toEqual([
      expect.objectContaining({
        name: 'dev app',
        application_id: dev.applicationId,
        details: 'Exploring',
        state: 'Solo',
      }),
    ]);
    const cleared = world.watcher.frames.length;
    await client.clearActivity();
    expect((await world.playerPresence(cleared)).activities).toEqual([]);
    await client.destroy();
  });

  it('discord-rpc: a joinable, spectatable instance shows as its flags, never its secrets', async () => {
    const { dev } = world;
    const client = new DiscordRpc.Client({ transport: 'ipc' });
    client.on('error', () => undefined);
    await withEnv('XDG_RUNTIME_DIR', world.dir, () =>
      client.login({ clientId: dev.applicationId }),
    );
    const seen = world.watcher.frames.length;
    const answer = (await client.setActivity({
      details: 'Ranked',
      partyId: 'party-1',
      joinSecret: 'the-join-secret',
      spectateSecret: 'the-spectate-secret',
      instance: true,
    })) as Record<string, unknown>;
    // The game's own answer keeps its secrets and says what they make of the activity.
    const flags = ActivityFlags.INSTANCE | ActivityFlags.JOIN | ActivityFlags.SPECTATE;
    expect(answer).toMatchObject({
      secrets: { join: 'the-join-secret', spectate: 'the-spectate-secret' },
      instance: true,
      flags,
    });
    const shown = await world.playerPresence(seen, (d) => d.activities.length > 0);
    expect(shown.activities).toEqual([
      expect.objectContaining({ details: 'Ranked', party: { id: 'party-1' }, flags }),
    ]);
    expect(JSON.stringify(shown)).not.toContain('secret');
    await client.destroy();
  });

  it('discord-rpc: its own login exchanges the code (redirect_uri "undefined" is ignored)', async () => {
    const { dev, player } = world;
    const client = new DiscordRpc.Client({ transport: 'ipc' });
    client.on('error', () => undefined);
    // The library's REST base (its constructor sets discord.com's), pointed at this platform.
    (client as unknown as { fetch: { endpoint: string } }).fetch.endpoint =
      `${world.server.baseUrl}/api`;
    await withEnv('XDG_RUNTIME_DIR', world.dir, () =>
      client.login({
        clientId: dev.applicationId,
        clientSecret: dev.clientSecret,
        scopes: ['identify', 'rpc'],
      }),
    );
    expect(client.application).toMatchObject({ id: dev.applicationId });
    expect(client.user).toMatchObject({ id: player.userId });
    await client.destroy();
  });
});

describe('the daemon after its gateway connection drops', () => {
  const world = useRpcWorld('sqlite');

  it('publishes the activities again once the session is back', async () => {
    // The daemon's own gateway sockets, to cut one (the player's network drops).
    const sockets: WebSocket[] = [];
    class WatchedWebSocket extends WebSocket {
      constructor(url: string) {
        super(url);
        sockets.push(this);
      }
    }
    const daemon = await world.startDaemon({
      WebSocket: WatchedWebSocket as unknown as RunRpcOptions['WebSocket'],
    });
    const client = new XhayperClient({ clientId: world.dev.applicationId });
    // The fixture's first daemon holds discord-ipc-0; the library takes the first that answers.
    await world.rpc.close();
    expect(daemon.daemon.path).toBe(`${world.dir}/discord-ipc-1`);
    await withEnv('XDG_RUNTIME_DIR', world.dir, () => client.connect());
    const seen = world.watcher.frames.length;
    await client.user?.setActivity({ details: 'before the drop' });
    await world.playerPresence(seen, (d) => d.activities.length > 0);

    const dropped = world.watcher.frames.length;
    sockets[0]?.terminate();
    const again = await world.playerPresence(dropped, (d) => d.activities.length > 0);
    expect(sockets.length).toBeGreaterThan(1);
    expect(again.activities).toEqual([
      expect.objectContaining({
        application_id: world.dev.applicationId,
        details: 'before the drop',
      }),
    ]);
    await client.destroy();
  });
});

describe('two RPC clients at once', () => {
  const world = useRpcWorld('sqlite');

  it('publishes both activities, each under its application, and drops only the leaver', async () => {
    const other = await world.server.app.services.applications.create(world.dev.userId, {
      name: 'second app',
    });
    const first = new XhayperClient({ clientId: world.dev.applicationId });
    const second = new XhayperClient({ clientId: other.application.id });
    await withEnv('XDG_RUNTIME_DIR', world.dir, async () => {
      await first.connect();
      await second.connect();
    });
    const seen = world.watcher.frames.length;
    await first.user?.setActivity({ details: 'one' });
    await second.user?.setActivity({ details: 'two' });
    const both = await world.playerPresence(seen, (d) => d.activities.length === 2);
    expect(both.activities).toEqual([
      expect.objectContaining({ name: 'dev app', application_id: world.dev.applicationId }),
      expect.objectContaining({ name: 'second app', application_id: other.application.id }),
    ]);
    const left = world.watcher.frames.length;
    await first.destroy();
    const one = await world.playerPresence(left);
    expect(one.activities).toEqual([
      expect.objectContaining({ name: 'second app', details: 'two' }),
    ]);
    await second.destroy();
  });
});

describe('the RPC example of docs/rpc.md', () => {
  const world = useRpcWorld('sqlite');

  it('connects, authorizes through its backend, authenticates and sets the activity', async () => {
    const demoJson = join(world.dir, 'demo.json');
    await writeFile(
      demoJson,
      JSON.stringify({
        api_url: world.server.app.apiUrl(),
        application_id: world.dev.applicationId,
        client_secret: world.dev.clientSecret,
      }),
    );
    const seen = world.watcher.frames.length;
    const child = spawn(process.execPath, [EXAMPLE], {
      env: { PATH: process.env['PATH'] ?? '', DEMO_JSON: demoJson, XDG_RUNTIME_DIR: world.dir },
      stdio: 'pipe',
    });
    const run = collectChild(child);
    // It says when it waits for Ctrl-C (its handler is in place from then on).
    const waiting = new Promise<void>((resolve) => {
      let out = '';
      // collectChild set the stream's encoding: chunks are strings.
      child.stdout.on('data', (chunk: string) => {
        out += chunk;
        if (out.includes('press Ctrl-C')) resolve();
      });
    });
    const shown = await world.playerPresence(seen, (d) => d.activities.length > 0);
    expect(shown.activities).toEqual([
      expect.objectContaining({
        name: 'dev app',
        application_id: world.dev.applicationId,
        details: 'Ranked match',
        party: { id: 'party-1', size: [2, 4] },
      }),
    ]);
    // Ctrl-C: the example clears its activity and leaves.
    const shownAt = world.watcher.frames.findIndex((f) => f.d === shown);
    await waiting;
    child.kill('SIGINT');
    const ended = await run;
    expect(ended.stderr).toBe('');
    expect(ended.code).toBe(0);
    expect(ended.stdout).toContain(
      `• connected to the local client of ${world.player.username} (${world.player.userId})`,
    );
    expect(ended.stdout).toContain(`• authenticated as ${world.player.username} for dev app`);
    expect(ended.stdout.trimEnd().endsWith('• done')).toBe(true);
    const cleared = await world.playerPresence(shownAt + 1);
    expect(cleared.activities).toEqual([]);
  });
});
