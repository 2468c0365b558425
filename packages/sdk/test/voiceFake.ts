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

/** The players the stand-in gateway knows, by the token they connect with. */
export const PLAYERS_BY_TOKEN: Record<
  string,
  { user: typeof PLAYER; sessionId: string; voiceToken: string }
> = {
  'main-token': { user: PLAYER, sessionId: 'main-session-1', voiceToken: 'voice-token-secret' },
  'other-token': { user: OTHER, sessionId: 'other-session', voiceToken: 'voice-token-secret-2' },
};

interface GatewaySession {
  socket: WebSocket;
  user: typeof PLAYER | null;
  sessionId: string;
  voiceToken: string;
  channelId: string | null;
}

/**
 * `GET /api/v10/gateway` and a gateway that READYs each player (by token) in one lobby. op 4 is
 * recorded; `mode` decides what follows (default: the voice states of those already in the call
 * to the joiner, the joiner's to everyone, then VOICE_SERVER_UPDATE to the joiner alone).
 */
export class FakeGateway extends EventEmitter {
  readonly voiceStates: VoiceStateCommand[] = [];
  /** Stand-ins already in the lobby's call (not connected players). */
  inCall: { id: string; self_mute: boolean; self_deaf: boolean }[] = [];
  voiceEndpoint = '';
  /** 'answer': voice states + VOICE_SERVER_UPDATE; 'silent': nothing (a join that never completes). */
  mode: 'answer' | 'silent' = 'answer';
  readonly #http: Server;
  readonly #wss: WebSocketServer;
  readonly #sessions: GatewaySession[] = [];
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

  /** A dispatch to every READY session (or one). */
  dispatch(t: string, d: unknown, to: GatewaySession | null = null): void {
    const frame = JSON.stringify({ op: 0, t, s: ++this.#seq, d });
    for (const session of to === null ? this.#sessions : [to]) {
      if (session.user !== null) session.socket.send(frame);
    }
  }

  /** A VOICE_STATE_UPDATE of the lobby (channel null: the user left the call). */
  voiceState(
    userId: string,
    channelId: string | null,
    flags: { selfMute?: boolean; selfDeaf?: boolean; to?: GatewaySession } = {},
  ): void {
    const { selfMute = false, selfDeaf = false, to = null } = flags;
    const session = this.#sessions.find((s) => s.user?.id === userId);
    this.dispatch(
      'VOICE_STATE_UPDATE',
      {
        guild_id: null,
        channel_id: channelId,
        user_id: userId,
        session_id: session?.sessionId ?? 'stand-in-session',
        self_mute: selfMute,
        self_deaf: selfDeaf,
        self_video: false,
        deaf: false,
        mute: false,
        suppress: false,
      },
      to,
    );
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#http.closeAllConnections();
    this.#http.close();
    await once(this.#http, 'close');
  }

  #onConnection(socket: WebSocket): void {
    const session: GatewaySession = {
      socket,
      user: null,
      sessionId: '',
      voiceToken: '',
      channelId: null,
    };
    this.#sessions.push(session);
    socket.on('close', () => {
      this.#sessions.splice(this.#sessions.indexOf(session), 1);
    });
    socket.send(JSON.stringify({ op: 10, d: { heartbeat_interval: 45_000 } }));
    socket.on('message', (raw: Buffer) => {
      const { op, d } = JSON.parse(raw.toString('utf8')) as {
        op: number;
        d: Record<string, unknown>;
      };
      if (op === 1) socket.send(JSON.stringify({ op: 11 }));
      else if (op === 2) this.#ready(session, String(d['token']).replace(/^Bearer /, ''));
      else if (op === 4) this.#onVoiceStateCommand(session, d as unknown as VoiceStateCommand);
    });
  }

  #ready(session: GatewaySession, token: string): void {
    const known = PLAYERS_BY_TOKEN[token];
    if (known === undefined) {
      session.socket.close(4004, 'authentication failed');
      return;
    }
    session.user = known.user;
    session.sessionId = known.sessionId;
    session.voiceToken = known.voiceToken;
    this.dispatch(
      'READY',
      {
        session_id: known.sessionId,
        user: known.user,
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
      },
      session,
    );
  }

  #onVoiceStateCommand(session: GatewaySession, command: VoiceStateCommand): void {
    this.voiceStates.push(command);
    this.emit('change');
    const user = session.user;
    if (this.mode === 'silent' || user === null) return;
    const flags = { selfMute: command.self_mute, selfDeaf: command.self_deaf };
    if (command.channel_id === null) {
      session.channelId = null;
      this.voiceState(user.id, null);
      return;
    }
    const moved = session.channelId !== command.channel_id;
    session.channelId = command.channel_id;
    if (moved) {
      for (const other of this.inCall) {
        this.voiceState(other.id, command.channel_id, {
          selfMute: other.self_mute,
          selfDeaf: other.self_deaf,
          to: session,
        });
      }
      for (const other of this.#sessions) {
        if (other !== session && other.user !== null && other.channelId === command.channel_id) {
          this.voiceState(other.user.id, command.channel_id, { to: session });
        }
      }
    }
    this.voiceState(user.id, command.channel_id, flags);
    if (!moved) return; // a mute or deafen: the voice server stays
    this.dispatch(
      'VOICE_SERVER_UPDATE',
      {
        token: session.voiceToken,
        guild_id: null,
        channel_id: command.channel_id,
        endpoint: this.voiceEndpoint,
      },
      session,
    );
  }
}

// ── The voice server ──────────────────────────────────────────────────────────────────────────

type Mode = 'aead_aes256_gcm_rtpsize' | 'aead_xchacha20_poly1305_rtpsize';

/** A DAVE delivery service (the server's `DaveCall` fits): what to send whom, per event. */
export interface FakeDaveMessage {
  to: readonly string[];
  op: number;
  json?: unknown;
  binary?: Uint8Array;
}
export interface FakeDave {
  addMember(userId: string): FakeDaveMessage[];
  removeMember(userId: string): FakeDaveMessage[];
  keyPackage(userId: string, payload: Uint8Array): FakeDaveMessage[];
  commitWelcome(userId: string, payload: Uint8Array): FakeDaveMessage[];
  transitionReady(userId: string, transitionId: number): FakeDaveMessage[];
  invalidCommitWelcome(userId: string, transitionId: number): FakeDaveMessage[];
}

export interface FakeVoiceOptions {
  /** Close Identify with this code instead of answering Ready. */
  refuseIdentify?: number;
  /** Ready's modes (default both). */
  modes?: Mode[];
  /** Session Description's DAVE version (default 1). */
  daveVersion?: number;
  /** Answer IP discovery (default true). */
  answerDiscovery?: boolean;
  /** The call's DAVE delivery service; without one, DAVE messages are only recorded. */
  dave?: FakeDave;
}

export interface Member {
  userId: string;
  socket: WebSocket;
  identify: Record<string, unknown>;
  ssrc: number;
  mode: Mode | null;
  key: Buffer;
  address: RemoteInfo | null;
  /** The sequence of the server's frames to this member. */
  serverSeq: number;
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
  /** Binary ops the clients sent (26: key package…). */
  readonly binary: { from: string; op: number; length: number }[] = [];
  /** Transport-decrypted payloads of the RTP the clients sent. */
  readonly received: { ssrc: number; payload: Buffer; sequence: number }[] = [];
  /** RTP packets that failed to authenticate. */
  rejected = 0;

  readonly #wss: WebSocketServer;
  readonly #udp: Socket;
  readonly #members = new Map<string, Member>();
  #nextSsrc = 4242;

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
    wss.on('connection', (socket) => {
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

  /** The member of a user (default: the first to identify). */
  member(userId?: string): Member | null {
    if (userId !== undefined) return this.#members.get(userId) ?? null;
    return this.#members.values().next().value ?? null;
  }

  /** Drops a client's WebSocket without a close frame (the client should resume). */
  drop(userId?: string): void {
    this.member(userId)?.socket.terminate();
  }

  /** Closes a client's WebSocket with a code. */
  closeWith(code: number, userId?: string): void {
    this.member(userId)?.socket.close(code, 'closed by the test');
  }

  sendJson(op: number, d: unknown, userId?: string): void {
    const member = this.member(userId);
    if (member === null) return;
    member.socket.send(JSON.stringify({ op, d, seq: ++member.serverSeq }));
  }

  sendBinary(member: Member, op: number, payload: Uint8Array): void {
    const frame = Buffer.alloc(3 + payload.length);
    frame.writeUInt16BE(++member.serverSeq & 0xffff, 0);
    frame.writeUInt8(op, 2);
    frame.set(payload, 3);
    member.socket.send(frame);
  }

  /** Sends a client an RTP packet from another member (`ssrc`), sealed with the client's key. */
  sendMedia(ssrc: number, payload: Uint8Array, userId?: string): void {
    const member = this.member(userId);
    if (member?.address == null || member.mode === null) throw new Error('no media path yet');
    const header = Buffer.alloc(12);
    header[0] = 0x80;
    header[1] = 0x78;
    header.writeUInt16BE(member.seq++ & 0xffff, 2);
    header.writeUInt32BE(1000 + 960 * member.seq, 4);
    header.writeUInt32BE(ssrc, 8);
    this.#sealTo(member, header, payload);
  }

  /** Sends a client raw bytes on the media socket. */
  sendRaw(bytes: Uint8Array, userId?: string): void {
    const address = this.member(userId)?.address;
    if (address == null) throw new Error('no media path yet');
    this.#udp.send(bytes, address.port, address.address);
  }

  async close(): Promise<void> {
    for (const client of this.#wss.clients) client.terminate();
    this.#wss.close();
    this.#udp.close();
    await once(this.#wss, 'close');
  }

  #sealTo(member: Member, header: Buffer, payload: Uint8Array): void {
    if (member.address === null || member.mode === null) return;
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

  /** DAVE messages the delivery service sent: op and recipients. */
  readonly daveSent: { op: number; to: string[] }[] = [];

  #deliver(messages: FakeDaveMessage[]): void {
    for (const message of messages) {
      this.daveSent.push({ op: message.op, to: [...message.to] });
      for (const userId of message.to) {
        const member = this.#members.get(userId);
        if (member === undefined) continue;
        if (message.binary !== undefined) this.sendBinary(member, message.op, message.binary);
        else this.sendJson(message.op, message.json, userId);
      }
    }
  }

  #onConnection(socket: WebSocket): void {
    socket.send(JSON.stringify({ op: 8, d: { heartbeat_interval: 45_000 } }));
    let userId: string | null = null;
    socket.on('message', (raw: Buffer, isBinary: boolean) => {
      if (isBinary) {
        const op = raw.readUInt8(0);
        this.binary.push({ from: userId ?? '', op, length: raw.length - 1 });
        const dave = this.options.dave;
        if (dave !== undefined && userId !== null) {
          const payload = raw.subarray(1);
          if (op === 26) this.#deliver(dave.keyPackage(userId, payload));
          else if (op === 28) this.#deliver(dave.commitWelcome(userId, payload));
        }
        this.emit('change');
        return;
      }
      const { op, d } = JSON.parse(raw.toString('utf8')) as {
        op: number;
        d: Record<string, unknown>;
      };
      if (op === 0 || op === 7)
        userId =
          typeof d['user_id'] === 'string' ? d['user_id'] : this.#userOfSession(d['session_id']);
      this.#onJson(socket, op, d, userId ?? '');
      this.emit('change');
    });
    socket.on('close', (code: number) => {
      // A member whose socket closed for good (1000/1001) leaves; a drop keeps its place for a Resume.
      if (userId === null || (code !== 1000 && code !== 1001)) return;
      if (this.#members.get(userId)?.socket === socket) this.#leave(userId);
    });
  }

  #userOfSession(sessionId: unknown): string {
    for (const member of this.#members.values()) {
      if (member.identify['session_id'] === sessionId) return member.userId;
    }
    return '';
  }

  #leave(userId: string): void {
    this.#members.delete(userId);
    for (const other of this.#members.values())
      this.sendJson(13, { user_id: userId }, other.userId);
    if (this.options.dave !== undefined) this.#deliver(this.options.dave.removeMember(userId));
    this.emit('change');
  }

  // eslint-disable-next-line max-params -- one frame's parts
  #onJson(socket: WebSocket, op: number, d: Record<string, unknown>, userId: string): void {
    const dave = this.options.dave;
    if (op === 0) {
      this.identifies.push(d);
      if (this.options.refuseIdentify !== undefined) {
        socket.close(this.options.refuseIdentify, 'refused by the test');
        return;
      }
      const ssrc = this.#nextSsrc++;
      this.#members.set(userId, {
        userId,
        socket,
        identify: d,
        ssrc,
        mode: null,
        key: Buffer.alloc(32, ssrc & 0xff),
        address: null,
        serverSeq: 0,
        nonce: 0,
        seq: 0,
      });
      socket.send(
        JSON.stringify({
          op: 2,
          d: {
            ssrc,
            ip: '127.0.0.1',
            port: this.#udp.address().port,
            modes: this.options.modes ?? [
              'aead_aes256_gcm_rtpsize',
              'aead_xchacha20_poly1305_rtpsize',
            ],
          },
        }),
      );
    } else if (op === 1) {
      this.selects.push(d);
      const member = this.#members.get(userId);
      if (member === undefined) return;
      member.mode = (d['data'] as { mode: Mode }).mode;
      this.sendJson(
        4,
        {
          mode: member.mode,
          secret_key: [...member.key],
          dave_protocol_version: this.options.daveVersion ?? 1,
        },
        userId,
      );
      const others = [...this.#members.keys()].filter((id) => id !== userId);
      if (others.length > 0) this.sendJson(11, { user_ids: others }, userId);
      for (const other of others) this.sendJson(11, { user_ids: [userId] }, other);
      if (dave !== undefined) this.#deliver(dave.addMember(userId));
    } else if (op === 3) {
      this.heartbeats.push(d);
      socket.send(JSON.stringify({ op: 6, d: { t: d['t'] } }));
    } else if (op === 5) {
      this.speaking.push(d);
      const member = this.#members.get(userId);
      for (const other of this.#members.values()) {
        if (other.userId !== userId) {
          this.sendJson(
            5,
            { user_id: userId, ssrc: member?.ssrc, speaking: d['speaking'] },
            other.userId,
          );
        }
      }
    } else if (op === 7) {
      this.resumes.push(d);
      const member = this.#members.get(userId);
      if (member !== undefined && d['session_id'] === member.identify['session_id']) {
        member.socket = socket;
        socket.send(JSON.stringify({ op: 9, d: null }));
      } else {
        socket.close(4006, 'session no longer valid');
      }
    } else if (dave !== undefined && op === 23) {
      this.#deliver(dave.transitionReady(userId, Number(d['transition_id'])));
    } else if (dave !== undefined && op === 31) {
      this.#deliver(dave.invalidCommitWelcome(userId, Number(d['transition_id'])));
    }
  }

  #onPacket(message: Buffer, from: RemoteInfo): void {
    if (message.length === 74 && message.readUInt16BE(0) === 1) {
      const member = [...this.#members.values()].find((m) => m.ssrc === message.readUInt32BE(4));
      if (member === undefined || this.options.answerDiscovery === false) return;
      member.address = from;
      const answer = Buffer.alloc(74);
      answer.writeUInt16BE(2, 0);
      answer.writeUInt16BE(70, 2);
      answer.writeUInt32BE(member.ssrc, 4);
      answer.write(from.address, 8, 'utf8');
      answer.writeUInt16BE(from.port, 72);
      this.#udp.send(answer, from.port, from.address);
      return;
    }
    if (message.length === 8) return; // keepalive
    const sender = [...this.#members.values()].find(
      (m) => m.address?.port === from.port && m.address.address === from.address,
    );
    if (sender?.mode == null || message.length < 12 + 16 + 4) return;
    const header = message.subarray(0, 12);
    const counter = message.subarray(message.length - 4);
    const payload = open(
      sender.mode,
      sender.key,
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
      // Relay: the same header, re-sealed for each other member.
      for (const other of this.#members.values()) {
        if (other !== sender) this.#sealTo(other, Buffer.from(header), payload);
      }
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
