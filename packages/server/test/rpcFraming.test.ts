/**
 * The daemon's IPC framing and command answers on raw sockets: frames that share a read or are
 * split across reads, the closes (unknown client 4000, bad version 4004, malformed 4005,
 * unsupported 1003, rate limit 4002) with the daemon serving its other clients throughout,
 * nonces and errors, consent refusal, guild reads and GUILD_STATUS, and the socket folder rules
 * (a live socket skipped, a stale one reclaimed).
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { IpcOpcodes as Op, RpcCloseCodes, RpcErrorCodes } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { describeDrivers } from './support/drivers.js';
import { frameBytes, json, rawIpc, useRpcWorld, type RawIpc } from './support/rpcFixture.js';

async function handshaken(path: string, clientId: string): Promise<RawIpc> {
  const ipc = await rawIpc(path);
  ipc.send(Op.HANDSHAKE, { v: 1, client_id: clientId });
  await ipc.next((f) => (f.data as { evt?: string }).evt === 'READY');
  return ipc;
}

const answerTo = (ipc: RawIpc, nonce: string) =>
  ipc.next((f) => f.op === Op.FRAME && (f.data as { nonce?: unknown }).nonce === nonce);

const closeOf = async (ipc: RawIpc) => {
  const frame = await ipc.next((f) => f.op === Op.CLOSE);
  await ipc.ended;
  return frame.data as { code: number; message: string };
};

describe('RPC framing on raw sockets', () => {
  const world = useRpcWorld('sqlite', { frames: 20 });
  const path = () => world.rpc.daemon.path;

  it('answers HANDSHAKE with READY and handles two frames that arrive in one write', async () => {
    const ipc = await rawIpc(path());
    ipc.write(
      Buffer.concat([
        frameBytes(Op.HANDSHAKE, json({ v: 1, client_id: world.dev.applicationId })),
        frameBytes(Op.PING, json('beat-1')),
      ]),
    );
    const ready = await ipc.next((f) => f.op === Op.FRAME);
    expect(ready.data).toEqual({
      cmd: 'DISPATCH',
      evt: 'READY',
      nonce: null,
      data: {
        v: 1,
        config: {
          cdn_host: new URL(world.server.baseUrl).host,
          api_endpoint: `//${new URL(world.server.baseUrl).host}/api`,
          environment: 'production',
        },
        user: expect.objectContaining({
          id: world.player.userId,
          username: world.player.username,
        }) as unknown,
      },
    });
    expect((await ipc.next((f) => f.op === Op.PONG)).data).toBe('beat-1');
    ipc.socket.destroy();
  });

  it('reassembles a frame written a byte at a time', async () => {
    const ipc = await rawIpc(path());
    const bytes = Buffer.concat([
      frameBytes(Op.HANDSHAKE, json({ v: 1, client_id: world.dev.applicationId })),
      frameBytes(Op.PING, json({ beat: 'é-2' })),
    ]);
    for (const byte of bytes) {
      await new Promise<void>((resolve) => {
        ipc.socket.write(Buffer.of(byte), () => {
          resolve();
        });
      });
    }
    expect((await ipc.next((f) => f.op === Op.PONG)).data).toEqual({ beat: 'é-2' });
    expect(ipc.frames[0]?.data).toMatchObject({ evt: 'READY' });
    ipc.socket.destroy();
  });

  it('closes an unknown client id with 4000 and a wrong version with 4004', async () => {
    const stranger = await rawIpc(path());
    stranger.send(Op.HANDSHAKE, { v: 1, client_id: '123456789012345678' });
    expect(await closeOf(stranger)).toEqual({
      code: RpcCloseCodes.INVALID_CLIENTID,
      message: 'Invalid Client ID',
    });
    const notAnId = await rawIpc(path());
    notAnId.send(Op.HANDSHAKE, { v: 1, client_id: 'my-game' });
    expect((await closeOf(notAnId)).code).toBe(RpcCloseCodes.INVALID_CLIENTID);
    const future = await rawIpc(path());
    future.send(Op.HANDSHAKE, { v: 2, client_id: world.dev.applicationId });
    expect(await closeOf(future)).toEqual({
      code: RpcCloseCodes.INVALID_VERSION,
      message: 'Invalid version: 2',
    });
  });

  it('closes malformed frames with their code and keeps serving the other clients', async () => {
    const steady = await handshaken(path(), world.dev.applicationId);

    const early = await rawIpc(path());
    early.send(Op.FRAME, { cmd: 'SET_ACTIVITY', args: {} });
    expect((await closeOf(early)).code).toBe(RpcCloseCodes.CLOSE_UNSUPPORTED);

    const badJson = await handshaken(path(), world.dev.applicationId);
    badJson.write(frameBytes(Op.FRAME, '{"cmd": "SET_ACT'));
    expect(await closeOf(badJson)).toEqual({
      code: RpcCloseCodes.INVALID_ENCODING,
      message: 'The frame is not JSON.',
    });

    const badUtf8 = await handshaken(path(), world.dev.applicationId);
    const header = Buffer.alloc(8);
    header.writeUInt32LE(Op.FRAME, 0);
    header.writeUInt32LE(2, 4);
    badUtf8.write(Buffer.concat([header, Buffer.of(0xc3, 0x28)]));
    expect((await closeOf(badUtf8)).code).toBe(RpcCloseCodes.INVALID_ENCODING);

    const badOpcode = await handshaken(path(), world.dev.applicationId);
    badOpcode.write(frameBytes(9, json({})));
    expect(await closeOf(badOpcode)).toEqual({
      code: RpcCloseCodes.CLOSE_UNSUPPORTED,
      message: 'Unknown opcode 9.',
    });

    // Refused from its header alone: the daemon does not wait for (or buffer) a megabyte.
    const huge = await handshaken(path(), world.dev.applicationId);
    const hugeHeader = Buffer.alloc(8);
    hugeHeader.writeUInt32LE(Op.FRAME, 0);
    hugeHeader.writeUInt32LE(1024 * 1024, 4);
    huge.write(hugeHeader);
    expect((await closeOf(huge)).code).toBe(RpcCloseCodes.CLOSE_UNSUPPORTED);

    const twice = await handshaken(path(), world.dev.applicationId);
    twice.send(Op.HANDSHAKE, { v: 1, client_id: world.dev.applicationId });
    expect((await closeOf(twice)).code).toBe(RpcCloseCodes.CLOSE_UNSUPPORTED);

    steady.send(Op.PING, 'still here');
    expect((await steady.next((f) => f.op === Op.PONG)).data).toBe('still here');
    expect(world.rpc.daemon.connections()).toBe(1);
    steady.socket.destroy();
  });

  it('closes a connection that sends more frames than its window allows with 4002', async () => {
    const ipc = await handshaken(path(), world.dev.applicationId);
    // The handshake counted as one of the 20.
    const pings = Array.from({ length: 25 }, (_, i) => frameBytes(Op.PING, json(`p${i}`)));
    ipc.write(Buffer.concat(pings));
    expect(await closeOf(ipc)).toMatchObject({ code: RpcCloseCodes.RATELIMITED });
    expect(ipc.frames.filter((f) => f.op === Op.PONG)).toHaveLength(19);
    const next = await handshaken(path(), world.dev.applicationId);
    next.socket.destroy();
  });

  it('closes a connection that sends no HANDSHAKE in time', async () => {
    const strict = await world.startDaemon({ handshakeTimeoutMs: 1 });
    const silent = await rawIpc(strict.daemon.path);
    expect(await closeOf(silent)).toEqual({
      code: RpcCloseCodes.CLOSE_UNSUPPORTED,
      message: 'No HANDSHAKE in time.',
    });
  });

  it('ends on a CLOSE from the client, and answers it with CLOSE 1000', async () => {
    const ipc = await handshaken(path(), world.dev.applicationId);
    ipc.send(Op.CLOSE, {});
    expect(await closeOf(ipc)).toMatchObject({ code: RpcCloseCodes.CLOSE_NORMAL });
  });

  it('echoes nonces, and answers errors as evt ERROR with their codes', async () => {
    const ipc = await handshaken(path(), world.dev.applicationId);
    const ask = async (nonce: string, payload: Record<string, unknown>) => {
      ipc.send(Op.FRAME, { ...payload, nonce });
      return (await answerTo(ipc, nonce)).data as Record<string, unknown>;
    };
    expect(await ask('n1', { cmd: 'NOT_A_COMMAND', args: {} })).toEqual({
      cmd: 'NOT_A_COMMAND',
      evt: 'ERROR',
      nonce: 'n1',
      data: { code: RpcErrorCodes.INVALID_COMMAND, message: 'Unknown command NOT_A_COMMAND.' },
    });
    expect(await ask('n2', { cmd: 'CAPTURE_SHORTCUT', args: {} })).toMatchObject({
      evt: 'ERROR',
      data: {
        code: RpcErrorCodes.INVALID_COMMAND,
        message: expect.stringMatching(/not supported/) as unknown,
      },
    });
    expect(await ask('n3', { cmd: 'GET_GUILDS', args: {} })).toMatchObject({
      cmd: 'GET_GUILDS',
      evt: 'ERROR',
      data: { code: RpcErrorCodes.INVALID_PERMISSIONS },
    });
    expect(
      await ask('n4', { cmd: 'SET_ACTIVITY', args: { pid: 1, activity: { type: 4 } } }),
    ).toMatchObject({ evt: 'ERROR', data: { code: RpcErrorCodes.INVALID_PAYLOAD } });
    expect(
      await ask('n5', {
        cmd: 'SET_ACTIVITY',
        args: { pid: 1, activity: { state: 'x'.repeat(200) } },
      }),
    ).toMatchObject({ evt: 'ERROR', data: { code: RpcErrorCodes.INVALID_PAYLOAD } });
    expect(await ask('n6', { cmd: 'SET_ACTIVITY', args: { activity: {} } })).toMatchObject({
      evt: 'ERROR',
      data: { code: RpcErrorCodes.INVALID_PAYLOAD, message: 'args.pid must be the process id.' },
    });
    expect(await ask('n7', { cmd: 'AUTHENTICATE', args: { access_token: 'nope' } })).toMatchObject({
      evt: 'ERROR',
      data: { code: RpcErrorCodes.INVALID_TOKEN },
    });
    expect(
      await ask('n8', {
        cmd: 'AUTHORIZE',
        args: { client_id: '123456789012345678', scopes: ['identify'] },
      }),
    ).toMatchObject({ evt: 'ERROR', data: { code: RpcErrorCodes.INVALID_CLIENTID } });
    expect(
      await ask('n9', { cmd: 'AUTHORIZE', args: { scopes: ['identify', 'no.such.scope'] } }),
    ).toMatchObject({ evt: 'ERROR', data: { code: RpcErrorCodes.OAUTH2_ERROR } });
    // A payload that is no object is refused but the connection stays.
    ipc.send(Op.FRAME, ['not', 'an', 'object']);
    ipc.send(Op.PING, 'after');
    expect((await ipc.next((f) => f.op === Op.PONG)).data).toBe('after');
    expect(ipc.frames.some((f) => (f.data as { evt?: string }).evt === 'ERROR')).toBe(true);
    ipc.socket.destroy();
  });

  it('takes the next socket while one is live, and reclaims one a dead process left', async () => {
    expect(world.rpc.daemon.path).toBe(`${world.dir}/discord-ipc-0`);
    expect(statSync(world.rpc.daemon.path).mode & 0o777).toBe(0o600);
    const second = await world.startDaemon();
    expect(second.daemon.path).toBe(`${world.dir}/discord-ipc-1`);
    await second.close();
    expect(existsSync(`${world.dir}/discord-ipc-1`)).toBe(false);

    // A process that dies without removing its socket leaves the file behind.
    const stalePath = `${world.dir}/discord-ipc-1`;
    const child = spawn(process.execPath, [
      '-e',
      `require('node:net').createServer().listen(${JSON.stringify(stalePath)}, () => console.log('up'))`,
    ]);
    await new Promise<void>((resolve) => {
      child.stdout.once('data', () => {
        resolve();
      });
    });
    const died = new Promise<void>((resolve) => {
      child.once('exit', () => {
        resolve();
      });
    });
    child.kill('SIGKILL');
    await died;
    expect(existsSync(stalePath)).toBe(true);
    const third = await world.startDaemon();
    expect(third.daemon.path).toBe(stalePath);
    const ipc = await handshaken(stalePath, world.dev.applicationId);
    ipc.socket.destroy();
  });
});

describeDrivers('RPC commands that read storage on $driver', (driver) => {
  const world = useRpcWorld(driver, { consent: 'deny' });

  it('refuses AUTHORIZE when the person denies, and answers guilds after AUTHENTICATE', async () => {
    const { dev, player, server } = world;
    const ipc = await handshaken(world.rpc.daemon.path, dev.applicationId);
    const ask = async (nonce: string, payload: Record<string, unknown>) => {
      ipc.send(Op.FRAME, { ...payload, nonce });
      return (await answerTo(ipc, nonce)).data as Record<string, unknown>;
    };
    expect(
      await ask('a1', {
        cmd: 'AUTHORIZE',
        args: { client_id: dev.applicationId, scopes: ['identify', 'rpc'] },
      }),
    ).toMatchObject({
      cmd: 'AUTHORIZE',
      evt: 'ERROR',
      data: {
        code: RpcErrorCodes.OAUTH2_ERROR,
        message: 'access_denied: the user denied the request.',
      },
    });
    expect(world.log.some((l) => l.includes('denied "dev app"'))).toBe(true);

    // The person authorized the app elsewhere (the web client's page); a token follows.
    const asked = { client_id: dev.applicationId, scope: 'identify rpc', response_type: 'code' };
    const decided = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/oauth2/authorize/local',
      headers: { authorization: player.token },
      payload: { ...asked, authorize: 'true' },
    });
    // Now covered: the daemon issues a code without asking (the deny mode is not consulted).
    const covered = await ask('a2', {
      cmd: 'AUTHORIZE',
      args: { client_id: dev.applicationId, scopes: ['identify', 'rpc'] },
    });
    expect(covered).toMatchObject({
      cmd: 'AUTHORIZE',
      evt: null,
      data: { code: expect.any(String) as unknown },
    });
    const { code } = decided.json<{ code: string }>();
    const token = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        client_id: dev.applicationId,
        client_secret: dev.clientSecret,
      }).toString(),
    });
    const accessToken = token.json<{ access_token: string }>().access_token;

    // A token of this app for another person (its developer) is refused.
    const devCode = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/oauth2/authorize/local',
      headers: { authorization: dev.userToken },
      payload: { ...asked, authorize: 'true' },
    });
    const devToken = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/oauth2/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        grant_type: 'authorization_code',
        code: devCode.json<{ code: string }>().code,
        client_id: dev.applicationId,
        client_secret: dev.clientSecret,
      }).toString(),
    });
    const others = devToken.json<{ access_token: string }>().access_token;
    expect(await ask('a4', { cmd: 'AUTHENTICATE', args: { access_token: others } })).toMatchObject({
      evt: 'ERROR',
      data: { code: RpcErrorCodes.INVALID_USER },
    });
    // Before AUTHENTICATE succeeded, the guild commands still answer 4006.
    expect(await ask('a5', { cmd: 'GET_GUILDS', args: {} })).toMatchObject({
      data: { code: RpcErrorCodes.INVALID_PERMISSIONS },
    });

    const guild = await server.app.http.inject({
      method: 'POST',
      url: '/api/v10/guilds',
      headers: { authorization: player.token },
      payload: { name: 'Ada’s Hall' },
    });
    expect(guild.statusCode).toBe(201);
    const guildId = guild.json<{ id: string }>().id;

    const authed = await ask('a3', { cmd: 'AUTHENTICATE', args: { access_token: accessToken } });
    expect(authed).toMatchObject({
      cmd: 'AUTHENTICATE',
      evt: null,
      data: {
        user: { id: player.userId },
        scopes: expect.arrayContaining(['identify', 'rpc']) as unknown,
        expires: expect.any(String) as unknown,
        application: { id: dev.applicationId, name: 'dev app' },
      },
    });
    expect(await ask('g1', { cmd: 'GET_GUILDS', args: {} })).toMatchObject({
      data: { guilds: [{ id: guildId, name: 'Ada’s Hall', icon_url: null }] },
    });
    expect(await ask('g2', { cmd: 'GET_GUILD', args: { guild_id: guildId } })).toMatchObject({
      data: { id: guildId, name: 'Ada’s Hall', members: [] },
    });
    const channels = (await ask('g3', { cmd: 'GET_CHANNELS', args: { guild_id: guildId } }))[
      'data'
    ] as { channels: { id: string; name: string; type: number }[] };
    expect(channels.channels.length).toBeGreaterThan(0);
    const first = channels.channels[0];
    expect(await ask('g4', { cmd: 'GET_CHANNEL', args: { channel_id: first?.id } })).toMatchObject({
      data: { id: first?.id, guild_id: guildId, name: first?.name, type: first?.type },
    });
    expect(
      await ask('g5', { cmd: 'GET_GUILD', args: { guild_id: '123456789012345678' } }),
    ).toMatchObject({ evt: 'ERROR', data: { code: RpcErrorCodes.INVALID_GUILD } });
    expect(
      await ask('g6', { cmd: 'GET_CHANNEL', args: { channel_id: '123456789012345678' } }),
    ).toMatchObject({ evt: 'ERROR', data: { code: RpcErrorCodes.INVALID_CHANNEL } });

    expect(
      await ask('s1', { cmd: 'SUBSCRIBE', evt: 'GUILD_STATUS', args: { guild_id: guildId } }),
    ).toMatchObject({ cmd: 'SUBSCRIBE', evt: 'GUILD_STATUS', data: { evt: 'GUILD_STATUS' } });
    const status = await ipc.next(
      (f) =>
        (f.data as { evt?: string; cmd?: string }).evt === 'GUILD_STATUS' &&
        (f.data as { cmd?: string }).cmd === 'DISPATCH',
    );
    expect(status.data).toEqual({
      cmd: 'DISPATCH',
      evt: 'GUILD_STATUS',
      nonce: null,
      data: { guild: { id: guildId, name: 'Ada’s Hall', icon_url: null }, online: 0 },
    });
    expect(
      await ask('s2', { cmd: 'SUBSCRIBE', evt: 'VOICE_CONNECTION_STATUS', args: {} }),
    ).toMatchObject({ evt: 'ERROR', data: { code: RpcErrorCodes.INVALID_EVENT } });
    expect(await ask('s4', { cmd: 'SUBSCRIBE', evt: 'SPEAKING_START', args: {} })).toMatchObject({
      evt: 'ERROR',
      data: { code: RpcErrorCodes.INVALID_CHANNEL },
    });
    expect(
      await ask('s3', { cmd: 'SUBSCRIBE', evt: 'VOICE_STATE_CREATE', args: {} }),
    ).toMatchObject({ evt: 'ERROR', data: { code: RpcErrorCodes.INVALID_CHANNEL } });
    ipc.socket.destroy();
  });
});
