/**
 * The voice tests' stand-ins for the platform (until the server's voice gateway is used): a main
 * gateway that answers op 4 of a lobby with VOICE_STATE_UPDATE and VOICE_SERVER_UPDATE, and a
 * voice server speaking the v8 voice gateway over a real WebSocket and a real UDP socket on
 * 127.0.0.1, with its own transport encryption (written here from the protocol, not shared with
 * the SDK). Its DAVE side records what a client sends; it never establishes a group, so only the
 * Opus silence frame (which DAVE leaves alone) carries media in these tests.
 *
 * @module
 */
import { createCipheriv, createDecipheriv } from 'node:crypto';
import { createSocket, type RemoteInfo, type Socket } from 'node:dgram';
import { EventEmitter, once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { xchacha20poly1305 } from '@noble/ciphers/chacha.js';
import { WebSocketServer, type WebSocket } from 'ws';

export const APP_ID = '1100000000000000001';
export const LOBBY_ID = '1200000000000000001';
export const PLAYER = { id: '1300000000000000001', username: 'ada' };
export const OTHER = { id: '1300000000000000002', username: 'bea' };

function listening(server: { address(): AddressInfo | string | null }): number {
  return (server.address() as AddressInfo).port;
}

/** Resolves when a predicate over an emitter's recorded state holds (checked on each change). */
export function until(emitter: EventEmitter, check: () => boolean): Promise<void> {
  if (check()) return Promise.resolve();
  return new Promise((resolve) => {
    const onChange = (): void => {
      if (check()) {
        emitter.off('change', onChange);
        resolve();
      }
    };
    emitter.on('change', onChange);
  });
}

// ── The main gateway ──────────────────────────────────────────────────────────────────────────

export interface VoiceStateCommand {
  guild_id: string | null;
  channel_id: string | null;
  self_mute: boolean;
  self_deaf: boolean;
  self_video: boolean;
}

/**
 * `GET /api/v10/gateway` and a gateway that READYs the player in one lobby. op 4 is recorded;
 * `answer` decides what follows (default: the others' voice states, the player's, then
 * VOICE_SERVER_UPDATE to `voiceEndpoint`).
 */
export class FakeGateway extends EventEmitter {
  readonly voiceStates: VoiceStateCommand[] = [];
  /** The other users already in the lobby's call when the player joins. */
  inCall: { id: string; self_mute: boolean; self_deaf: boolean }[] = [];
  voiceEndpoint = '';
  /** 'answer': voice states + VOICE_SERVER_UPDATE; 'silent': nothing (a join that never completes). */
  mode: 'answer' | 'silent' = 'answer';
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  #socket: WebSocket | null = null;
  #seq = 1;

  private constructor(http: Server, wss: WebSocketServer) {
    super();
    this.#http = http;
    this.#wss = wss;
  }

  static async start(): Promise<FakeGateway> {
    const http = createServer();
    const wss = new WebSocketServer({ server: http });
    const gateway = new FakeGateway(http, wss);
    http.on('request', (req, res) => {
      if (req.url === '/api/v10/gateway') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ url: `ws://127.0.0.1:${listening(http)}` }));
      } else {
        res.writeHead(404);
        res.end();
      }
    });
    wss.on('connection', (socket) => {
      gateway.#onConnection(socket);
    });
    http.listen(0, '127.0.0.1');
    await once(http, 'listening');
    return gateway;
  }

  get apiBase(): string {
    return `http://127.0.0.1:${listening(this.#http)}/api/v10`;
  }

  dispatch(t: string, d: unknown): void {
    this.#socket?.send(JSON.stringify({ op: 0, t, s: ++this.#seq, d }));
  }

  /** A VOICE_STATE_UPDATE of the lobby (channel null: the user left the call). */
  voiceState(
    userId: string,
    channelId: string | null,
    flags: { selfMute?: boolean; selfDeaf?: boolean } = {},
  ): void {
    const { selfMute = false, selfDeaf = false } = flags;
    this.dispatch('VOICE_STATE_UPDATE', {
      guild_id: null,
      channel_id: channelId,
      user_id: userId,
      session_id: userId === PLAYER.id ? 'main-session-1' : 'other-session',
      self_mute: selfMute,
      self_deaf: selfDeaf,
      self_video: false,
      deaf: false,
      mute: false,
      suppress: false,
    });
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#http.closeAllConnections();
    this.#http.close();
    await once(this.#http, 'close');
  }

  #onConnection(socket: WebSocket): void {
    this.#socket = socket;
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 45_000 } }));
    socket.on('message', (raw: Buffer) => {
      const { op, d } = JSON.parse(raw.toString('utf8')) as { op: number; d: unknown };
      if (op === 1) socket.send(JSON.stringify({ op: 11 }));
      else if (op === 2) this.#ready();
      else if (op === 4) this.#onVoiceStateCommand(d as VoiceStateCommand);
    });
  }

  #ready(): void {
    this.dispatch('READY', {
      session_id: 'main-session-1',
      user: PLAYER,
      application: { id: APP_ID },
      lobbies: [
        {
          id: LOBBY_ID,
          application_id: APP_ID,
          metadata: {},
          members: [
            { id: PLAYER.id, user: PLAYER, metadata: {}, flags: 0 },
            { id: OTHER.id, user: OTHER, metadata: {}, flags: 0 },
          ],
        },
      ],
    });
  }

  #onVoiceStateCommand(command: VoiceStateCommand): void {
    this.voiceStates.push(command);
    this.emit('change');
    if (this.mode === 'silent') return;
    if (command.channel_id === null) {
      this.voiceState(PLAYER.id, null);
      return;
    }
    const known = this.voiceStates.filter((c) => c.channel_id !== null).length > 1;
    if (!known)
      for (const other of this.inCall)
        this.voiceState(other.id, command.channel_id, {
          selfMute: other.self_mute,
          selfDeaf: other.self_deaf,
        });
    this.voiceState(PLAYER.id, command.channel_id, {
      selfMute: command.self_mute,
      selfDeaf: command.self_deaf,
    });
    if (known) return; // a mute or deafen: the voice server stays
    this.dispatch('VOICE_SERVER_UPDATE', {
      token: 'voice-token-secret',
      guild_id: null,
      channel_id: command.channel_id,
      endpoint: this.voiceEndpoint,
    });
  }
}

// ── The voice server ──────────────────────────────────────────────────────────────────────────

type Mode = 'aead_aes256_gcm_rtpsize' | 'aead_xchacha20_poly1305_rtpsize';

export interface FakeVoiceOptions {
  /** Close Identify with this code instead of answering Ready. */
  refuseIdentify?: number;
  /** Ready's modes (default both). */
  modes?: Mode[];
  /** Session Description's DAVE version (default 1). */
  daveVersion?: number;
  /** Answer IP discovery (default true). */
  answerDiscovery?: boolean;
}

interface Member {
  socket: WebSocket;
  identify: Record<string, unknown>;
  ssrc: number;
  mode: Mode | null;
  key: Buffer;
  address: RemoteInfo | null;
  /** Server → client: counter of the nonce, and the RTP sequence of injected packets. */
  nonce: number;
  seq: number;
}

export class FakeVoiceServer extends EventEmitter {
  readonly options: FakeVoiceOptions;
  readonly identifies: Record<string, unknown>[] = [];
  readonly resumes: Record<string, unknown>[] = [];
  readonly selects: Record<string, unknown>[] = [];
  readonly speaking: Record<string, unknown>[] = [];
  readonly heartbeats: Record<string, unknown>[] = [];
  /** Binary ops the client sent (26: key package…). */
  readonly binary: { op: number; length: number }[] = [];
  /** Transport-decrypted payloads of the RTP the client sent. */
  readonly received: { ssrc: number; payload: Buffer; sequence: number }[] = [];
  /** RTP packets that failed to authenticate. */
  rejected = 0;
  readonly #wss: WebSocketServer;
  readonly #udp: Socket;
  #member: Member | null = null;
  #serverSeq = 0;

  private constructor(wss: WebSocketServer, udp: Socket, options: FakeVoiceOptions) {
    super();
    this.#wss = wss;
    this.#udp = udp;
    this.options = options;
  }

  static async start(options: FakeVoiceOptions = {}): Promise<FakeVoiceServer> {
    const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await once(wss, 'listening');
    const udp = createSocket('udp4');
    udp.bind(0, '127.0.0.1');
    await once(udp, 'listening');
    const server = new FakeVoiceServer(wss, udp, options);
    wss.on('connection', (socket, request) => {
      server.emit('url', request.url);
      server.#onConnection(socket);
    });
    udp.on('message', (message, from) => {
      server.#onPacket(message, from);
    });
    return server;
  }

  get endpoint(): string {
    return `127.0.0.1:${listening(this.#wss)}`;
  }

  get member(): Member | null {
    return this.#member;
  }

  /** Drops the client's WebSocket without a close frame (the client should resume). */
  drop(): void {
    this.#member?.socket.terminate();
  }

  /** Closes the client's WebSocket with a code. */
  closeWith(code: number): void {
    this.#member?.socket.close(code, 'closed by the test');
  }

  sendJson(op: number, d: unknown): void {
    this.#member?.socket.send(JSON.stringify({ op, d, seq: ++this.#serverSeq }));
  }

  /** Sends the client an RTP packet from another member (`ssrc`), sealed with the client's key. */
  sendMedia(ssrc: number, payload: Uint8Array): void {
    const member = this.#member;
    if (member?.address == null || member.mode === null) throw new Error('no media path yet');
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    header[1] = 0x78;
    header.writeUInt16BE(member.seq++ & 0xffff, 2);
    header.writeUInt32BE(1000 + 960 * member.seq, 4);
    header.writeUInt32BE(ssrc, 8);
    member.nonce += 1;
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(member.nonce, 0);
    const sealed = seal(member.mode, member.key, counter, header, payload);
    this.#udp.send(
      Buffer.concat([header, sealed, counter]),
      member.address.port,
      member.address.address,
    );
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#udp.close();
    await once(this.#wss, 'close');
  }

  #onConnection(socket: WebSocket): void {
    socket.send(JSON.stringify({ op: 8, d: { heartbeat_interval: 45_000 } }));
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      if (isBinary) {
        this.binary.push({ op: raw.readUInt8(0), length: raw.length - 1 });
        this.emit('change');
        return;
      }
      const { op, d } = JSON.parse(raw.toString('utf8')) as {
        op: number;
        d: Record<string, unknown>;
      };
      this.#onJson(socket, op, d);
      this.emit('change');
    });
  }

  #onJson(socket: WebSocket, op: number, d: Record<string, unknown>): void {
    if (op === 0) {
      this.identifies.push(d);
      if (this.options.refuseIdentify !== undefined) {
        socket.close(this.options.refuseIdentify, 'refused by the test');
        return;
      }
      this.#member = {
        socket,
        identify: d,
        ssrc: 4242,
        mode: null,
        key: Buffer.alloc(32, 7),
        address: null,
        nonce: 0,
        seq: 0,
      };
      socket.send(
        JSON.stringify({
          op: 2,
          d: {
            ssrc: 4242,
            ip: '127.0.0.1',
            port: (this.#udp.address()).port,
            modes: this.options.modes ?? [
              'aead_aes256_gcm_rtpsize',
              'aead_xchacha20_poly1305_rtpsize',
            ],
          },
        }),
      );
    } else if (op === 1) {
      this.selects.push(d);
      const member = this.#member;
      if (member === null) return;
      member.mode = (d['data'] as { mode: Mode }).mode;
      socket.send(
        JSON.stringify({
          op: 4,
          d: {
            mode: member.mode,
            secret_key: [...member.key],
            dave_protocol_version: this.options.daveVersion ?? 1,
          },
        }),
      );
    } else if (op === 3) {
      this.heartbeats.push(d);
      socket.send(JSON.stringify({ op: 6, d: { t: d['t'] } }));
    } else if (op === 5) {
      this.speaking.push(d);
    } else if (op === 7) {
      this.resumes.push(d);
      if (this.#member !== null && d['session_id'] === this.#member.identify['session_id']) {
        this.#member.socket = socket;
        socket.send(JSON.stringify({ op: 9, d: null }));
      } else {
        socket.close(4006, 'session no longer valid');
      }
    }
  }

  #onPacket(message: Buffer, from: RemoteInfo): void {
    const member = this.#member;
    if (member === null) return;
    if (message.length === 74 && message.readUInt16BE(0) === 1) {
      if (this.options.answerDiscovery === false) return;
      member.address = from;
      const answer = Buffer.alloc(74);
      answer.writeUInt16BE(2, 0);
      answer.writeUInt16BE(70, 2);
      answer.writeUInt32BE(message.readUInt32BE(4), 4);
      answer.write(from.address, 8, 'utf8');
      answer.writeUInt16BE(from.port, 72);
      this.#udp.send(answer, from.port, from.address);
      return;
    }
    if (message.length === 8) return; // keepalive
    if (member.mode === null || message.length < 12 + 16 + 4) return;
    const header = message.subarray(0, 12);
    const counter = message.subarray(message.length - 4);
    const payload = open(
      member.mode,
      member.key,
      counter,
      header,
      message.subarray(12, message.length - 4),
    );
    if (payload === null) {
      this.rejected += 1;
    } else {
      this.received.push({
        ssrc: header.readUInt32BE(8),
        payload,
        sequence: header.readUInt16BE(2),
      });
    }
    this.emit('change');
  }
}

function nonce(mode: Mode, counter: Buffer): Buffer {
  const out = Buffer.alloc(mode === 'aead_aes256_gcm_rtpsize' ? 12 : 24);
  counter.copy(out, 0);
  return out;
}

// eslint-disable-next-line max-params -- an AEAD's inputs
function seal(mode: Mode, key: Buffer, counter: Buffer, aad: Buffer, plain: Uint8Array): Buffer {
  if (mode === 'aead_aes256_gcm_rtpsize') {
    const cipher = createCipheriv('aes-256-gcm', key, nonce(mode, counter));
    cipher.setAAD(aad);
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  }
  return Buffer.from(xchacha20poly1305(key, nonce(mode, counter), aad).encrypt(plain));
}

// eslint-disable-next-line max-params -- an AEAD's inputs
function open(
  mode: Mode,
  key: Buffer,
  counter: Buffer,
  aad: Buffer,
  sealed: Buffer,
): Buffer | null {
  try {
    if (mode === 'aead_aes256_gcm_rtpsize') {
      const decipher = createDecipheriv('aes-256-gcm', key, nonce(mode, counter));
      decipher.setAAD(aad);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      return Buffer.concat([
        decipher.update(sealed.subarray(0, sealed.length - 16)),
        decipher.final(),
      ]);
    }
    return Buffer.from(xchacha20poly1305(key, nonce(mode, counter), aad).decrypt(sealed));
  } catch {
    return null;
  }
}
