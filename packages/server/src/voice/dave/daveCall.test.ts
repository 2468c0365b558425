import { randomBytes, sign } from 'node:crypto';
import { generateP256 } from './externalSender.js';
import { DAVESession } from '@discordjs/voice';
import type { DAVESession as DaveySession, MediaType } from '@snazzah/davey';
import { describe, expect, it } from 'vitest';
import { manualClock } from '../../domain/clock.js';
import {
  DaveCall,
  DaveProtocolError,
  MAX_COMMIT_WELCOME_BYTES,
  type DaveMessage,
} from './daveCall.js';
import { parseKeyPackage, signContent } from './mls.js';
import { TlsWriter } from './tls.js';

/**
 * A small voice gateway between one DaveCall and real DAVE clients: @discordjs/voice's
 * DAVESession (davey, OpenMLS inside), driven exactly as its Networking class drives it.
 * One FIFO queue carries both directions, so each socket keeps its order.
 */
const CHANNEL = '1300000000000000001';
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- davey's MediaType.AUDIO: a const enum, which isolated modules cannot read
const AUDIO = 0 as MediaType;

interface ClientMessage {
  op: number;
  binary?: Uint8Array;
  json?: { transition_id: number; protocol_version?: number; epoch?: number };
}

class Client {
  readonly dave: DAVESession;
  readonly connected = new Set<string>();
  readonly executed: number[] = [];
  readonly userId: string;
  private readonly net: Network;

  constructor(userId: string, net: Network) {
    this.userId = userId;
    this.net = net;
    this.dave = new DAVESession(1, userId, CHANNEL, {});
    this.dave.on('keyPackage', (keyPackage: Buffer) => {
      net.toServer(this, { op: 26, binary: keyPackage });
    });
    this.dave.on('invalidateTransition', (transitionId: number) => {
      net.toServer(this, { op: 31, json: { transition_id: transitionId } });
    });
  }

  /** The davey session inside (@discordjs/voice types only the part it uses). */
  get session(): DaveySession {
    const session = this.dave.session;
    if (!session) throw new Error('no DAVE session');
    return session as unknown as DaveySession;
  }

  /** Networking.onWsBinary and the DAVE part of Networking.onWsPacket. */
  receive(message: DaveMessage): void {
    const payload = Buffer.from(message.binary ?? new Uint8Array());
    const d = message.json as {
      transition_id: number;
      protocol_version: number;
      epoch: number;
      user_ids: string[];
      user_id: string;
    };
    switch (message.op) {
      case 11:
        for (const id of d.user_ids) this.connected.add(id);
        break;
      case 13:
        this.connected.delete(d.user_id);
        break;
      case 25:
        this.dave.setExternalSender(payload);
        break;
      case 27: {
        const answer = this.dave.processProposals(payload, this.connected);
        if (answer) this.net.toServer(this, { op: 28, binary: answer });
        break;
      }
      case 29:
      case 30: {
        const { transitionId, success } =
          message.op === 29 ? this.dave.processCommit(payload) : this.dave.processWelcome(payload);
        if (success && transitionId !== 0) {
          this.net.toServer(this, { op: 23, json: { transition_id: transitionId } });
        }
        break;
      }
      case 22:
        if (this.dave.executeTransition(d.transition_id)) this.executed.push(d.transition_id);
        break;
      case 24:
        this.dave.prepareEpoch(d);
        break;
      default:
        throw new Error(`unexpected op ${message.op}`);
    }
  }
}

/** A client's socket is its Client object: a user that reconnects gets a new one. */
type Delivery =
  | { kind: 'server'; from: string; source: Client; message: ClientMessage }
  | { kind: 'client'; to: string; target: Client; message: DaveMessage };

class Network {
  readonly clock = manualClock(1_000_000);
  readonly call = new DaveCall({ channelId: CHANNEL, clock: this.clock });
  readonly clients = new Map<string, Client>();
  readonly queue: Delivery[] = [];
  /** Everything the server sent and received, in order. */
  readonly log: Delivery[] = [];
  readonly errors: unknown[] = [];
  /** Users whose next commit or welcome arrives damaged (the client cannot process it). */
  readonly damageNext = new Set<string>();
  /** Drops deliveries for which it returns true (a silent client, a lost frame). */
  drop: (delivery: Delivery) => boolean = () => false;

  toServer(source: Client, message: ClientMessage): void {
    this.queue.push({ kind: 'server', from: source.userId, source, message });
  }

  /** The gateway writes to the user's socket of the moment. */
  send(messages: DaveMessage[]): void {
    for (const message of messages) {
      for (const to of message.to) {
        const target = this.clients.get(to);
        if (target) this.queue.push({ kind: 'client', to, target, message });
      }
    }
  }

  client(userId: string): Client {
    const client = this.clients.get(userId);
    if (!client) throw new Error(`no client ${userId}`);
    return client;
  }

  /** Session Description → the client's DAVE session and key package; op 11; addMember. */
  join(userId: string): Client {
    this.clients.get(userId)?.dave.destroy();
    this.clients.delete(userId);
    this.send(this.call.removeMember(userId));
    const client = new Client(userId, this);
    const others = [...this.clients.keys()];
    this.clients.set(userId, client);
    this.send([
      { to: others, op: 11, json: { user_ids: [userId] } },
      { to: [userId], op: 11, json: { user_ids: others } },
    ]);
    this.send(this.call.addMember(userId));
    client.dave.reinit();
    return client;
  }

  leave(userId: string): void {
    this.client(userId).dave.destroy();
    this.clients.delete(userId);
    this.send([{ to: [...this.clients.keys()], op: 13, json: { user_id: userId } }]);
    this.send(this.call.removeMember(userId));
  }

  tick(ms: number): void {
    this.clock.advance(ms);
    this.send(this.call.tick());
  }

  /** Delivers one queued message; false when the queue is empty. */
  step(): boolean {
    const delivery = this.queue.shift();
    if (!delivery) return false;
    if (this.drop(delivery)) return true;
    this.log.push(delivery);
    if (delivery.kind === 'client') {
      // A closed socket takes nothing more.
      if (this.clients.get(delivery.to) !== delivery.target) return true;
      const { message, to } = delivery;
      if ((message.op === 29 || message.op === 30) && this.damageNext.delete(to)) {
        // Its tail: the commit's membership tag, the welcome's encrypted group info.
        const damaged = Uint8Array.from(message.binary ?? []);
        damaged.fill(0xff, damaged.length - 8);
        delivery.target.receive({ ...message, binary: damaged });
      } else {
        delivery.target.receive(message);
      }
      return true;
    }
    // The socket it came on is closed.
    if (this.clients.get(delivery.from) !== delivery.source) return true;
    try {
      this.send(this.serve(delivery.from, delivery.message));
    } catch (error) {
      this.errors.push(error);
    }
    return true;
  }

  private serve(from: string, { op, binary, json }: ClientMessage): DaveMessage[] {
    const call = this.call;
    switch (op) {
      case 26:
        return call.keyPackage(from, binary ?? new Uint8Array());
      case 28:
        return call.commitWelcome(from, binary ?? new Uint8Array());
      case 23:
        return call.transitionReady(from, json?.transition_id ?? -1);
      case 31:
        return call.invalidCommitWelcome(from, json?.transition_id ?? -1);
      default:
        throw new Error(`unexpected op ${op}`);
    }
  }

  pump(): void {
    for (let i = 0; i < 10_000; i++) if (!this.step()) return;
    throw new Error('the network never went quiet');
  }

  /** Delivers until `done` holds after a delivery. */
  pumpUntil(done: () => boolean): void {
    for (let i = 0; i < 10_000; i++) {
      if (!this.step()) throw new Error('the network went quiet first');
      if (done()) return;
    }
    throw new Error('never happened');
  }

  sent(op: number): Delivery[] {
    return this.log.filter((d) => (d.kind === 'client' ? d.message.op : d.message.op) === op);
  }
}

function opusFrame(): Buffer {
  // A TOC byte of a 20 ms CELT frame, then payload; never the F8 FF FE silence frame.
  return Buffer.concat([Buffer.of(0x78), randomBytes(60)]);
}

/** Everyone in `userIds` is in the call's group, in step, and can hear everyone else. */
function expectOneGroup(net: Network, userIds: string[]): void {
  expect(net.errors).toEqual([]);
  const roster = net.call.groupMembers();
  expect([...roster].sort()).toEqual([...userIds].sort());
  for (const id of userIds) {
    const { session } = net.client(id);
    expect(session.ready).toBe(true);
    expect(Number(session.epoch)).toBe(net.call.epoch);
    expect([...session.getUserIds()].sort()).toEqual([...userIds].sort());
    // The server's leaf bookkeeping matches the client's own leaf.
    expect(net.call.leafIndex(id)).toBe(session.ownLeafIndex);
  }
  for (const sender of userIds) {
    const frame = opusFrame();
    const encrypted = net.client(sender).session.encryptOpus(frame);
    expect(encrypted.equals(frame)).toBe(false);
    expect(encrypted.includes(frame.subarray(1, 20))).toBe(false);
    for (const receiver of userIds) {
      if (receiver === sender) continue;
      const decrypted = net.client(receiver).session.decrypt(sender, AUDIO, encrypted);
      expect(decrypted.equals(frame)).toBe(true);
    }
  }
}

const A = '100000000000000001';
const B = '100000000000000002';
const C = '100000000000000003';
const D = '100000000000000004';

function groupOf(...ids: string[]): Network {
  const net = new Network();
  for (const id of ids) {
    net.join(id);
    net.pump();
  }
  return net;
}

describe('DaveCall with real DAVE clients', () => {
  it('forms a group of two that encrypt to each other, then executes the transition', () => {
    const net = new Network();
    net.join(A);
    net.pump();
    // Alone, A is the creator of a group only it knows of.
    expect(net.call.epoch).toBe(0);
    expect(net.call.groupMembers()).toEqual([A]);
    expect(net.sent(27)).toEqual([]);
    net.join(B);
    net.pump();
    expect(net.call.epoch).toBe(1);
    expectOneGroup(net, [A, B]);
    const [announce] = net.sent(29);
    const [welcome] = net.sent(30);
    expect(announce).toMatchObject({ kind: 'client', to: A });
    expect(welcome).toMatchObject({ kind: 'client', to: B });
    const transitionId = new DataView(
      (announce?.message.binary ?? new Uint8Array(2)).buffer,
    ).getUint16(0);
    expect(transitionId).toBeGreaterThan(0);
    expect(net.client(A).executed).toEqual([transitionId]);
    expect(net.client(B).executed).toEqual([transitionId]);
  });

  it('adds a third member later, and a fourth', () => {
    const net = groupOf(A, B, C);
    expect(net.call.epoch).toBe(2);
    expectOneGroup(net, [A, B, C]);
    net.join(D);
    net.pump();
    expect(net.call.epoch).toBe(3);
    expectOneGroup(net, [A, B, C, D]);
  });

  it('grows to a dozen members, one epoch per join, with welcomes under the size limit', () => {
    const ids = Array.from({ length: 12 }, (_, k) => String(200_000_000_000_000_000n + BigInt(k)));
    const net = groupOf(...ids);
    expect(net.call.epoch).toBe(11);
    expectOneGroup(net, ids);
    const largest = Math.max(...net.sent(28).map((d) => d.message.binary?.length ?? 0));
    expect(largest).toBeLessThan(MAX_COMMIT_WELCOME_BYTES / 8);
  });

  it('removes a member that leaves; its old key no longer decrypts', () => {
    const net = groupOf(A, B, C);
    const leaver = net.client(C);
    net.leave(C);
    net.pump();
    expect(net.call.epoch).toBe(3);
    expectOneGroup(net, [A, B]);
    const encrypted = net.client(A).session.encryptOpus(opusFrame());
    expect(() => leaver.session.decrypt(A, AUDIO, encrypted)).toThrow();
    // The freed leaf is taken by the next member.
    net.join(D);
    net.pump();
    expectOneGroup(net, [A, B, D]);
    expect(net.call.groupMembers()).toEqual([A, B, D]);
  });

  it('takes the first of two commits for an epoch and ignores the second', () => {
    const net = groupOf(A, B);
    net.join(C);
    net.pump();
    const commits = net.sent(28).slice(-2);
    expect(commits.map((d) => (d.kind === 'server' ? d.from : ''))).toEqual([A, B]);
    const announced = net.sent(29).at(-1)?.message.binary?.subarray(2);
    expect(
      Buffer.from(announced ?? []).equals(
        Buffer.from(commits[0]?.message.binary ?? []).subarray(0, announced?.length),
      ),
    ).toBe(true);
    expect(net.call.epoch).toBe(2);
    expectOneGroup(net, [A, B, C]);
  });

  it('lets the next pending member create the group when the creator leaves', () => {
    const net = new Network();
    net.join(A);
    net.join(B);
    // A's commit adding B is on its way when A leaves.
    net.pumpUntil(() => net.queue.some((d) => d.kind === 'server' && d.message.op === 28));
    net.leave(A);
    net.pump();
    expect(net.call.groupMembers()).toEqual([B]);
    net.join(C);
    net.pump();
    expectOneGroup(net, [B, C]);
    net.leave(B);
    net.leave(C);
    net.pump();
    expect(net.call.groupMembers()).toEqual([]);
    expect(net.call.epoch).toBe(0);
    expect(net.errors).toEqual([]);
  });

  it('revokes the add of a member that leaves before its commit, and adds the others', () => {
    const net = groupOf(A, B);
    const before = net.log.length;
    net.join(C);
    net.join(D);
    // A and B committed the add of C; the server has not seen those commits yet.
    net.pumpUntil(
      () => net.queue.filter((d) => d.kind === 'server' && d.message.op === 28).length === 2,
    );
    net.leave(C);
    net.pump();
    const revokes = net.sent(27).filter((d) => d.message.binary?.[0] === 1);
    expect(revokes.map((d) => d.kind === 'client' && d.to)).toEqual([A, B]);
    const welcomes = net.log
      .slice(before)
      .filter((d) => d.kind === 'client' && d.message.op === 30);
    expect(welcomes.map((d) => d.kind === 'client' && d.to)).toEqual([D]);
    expectOneGroup(net, [A, B, D]);
  });

  it('removes and re-adds a member whose commit failed (op 31)', () => {
    const net = groupOf(A, B, C);
    const epoch = net.call.epoch;
    // B gets a commit it cannot process: it says so, re-initialises and sends a key package.
    net.damageNext.add(B);
    net.join(D);
    net.pump();
    expect(net.sent(31)).toHaveLength(1);
    expect(net.call.epoch).toBeGreaterThan(epoch + 1);
    expectOneGroup(net, [A, B, C, D]);
  });

  it('makes a committer whose commit everyone else fails start over too', () => {
    const net = groupOf(A, B);
    // A's commit adding C reaches B and C damaged (a client that sends bad commits).
    net.drop = (d) => d.kind === 'client' && d.to === B && d.message.op === 27;
    net.damageNext.add(B);
    net.damageNext.add(C);
    net.join(C);
    net.pumpUntil(() => net.sent(31).length === 2);
    net.drop = () => false;
    net.pump();
    expect(net.sent(24).map((d) => d.kind === 'client' && d.to)).toEqual([A]);
    expectOneGroup(net, [A, B, C]);
  });

  it('re-forms the group with op 24 when a batch never gets a commit', () => {
    const net = groupOf(A, B);
    // A and B stop answering proposals: C's add is never committed.
    net.drop = (d) => d.kind === 'client' && d.message.op === 27;
    net.join(C);
    net.pump();
    expect(net.call.groupMembers()).toEqual([A, B]);
    net.tick(5_000);
    expect(net.sent(24)).toEqual([]);
    net.drop = () => false;
    net.tick(5_000);
    net.pump();
    expect(net.sent(24)).toHaveLength(3);
    // A new group: its creator adds the first key package it gets, then the last one.
    expect(net.call.epoch).toBe(2);
    expectOneGroup(net, [A, B, C]);
  });

  it('executes a transition without a member that never confirms it, and re-adds that one', () => {
    const net = groupOf(A, B);
    net.drop = (d) => d.kind === 'server' && d.from === C && d.message.op === 23;
    net.join(C);
    net.pump();
    expect(net.sent(22).filter((d) => d.kind === 'client' && d.to === A)).toHaveLength(1);
    net.drop = () => false;
    net.tick(10_000);
    net.pump();
    // A and B executed; C was told to start over (op 24) and was added again.
    expect(net.sent(24).map((d) => d.kind === 'client' && d.to)).toEqual([C]);
    expect(net.client(A).executed.length).toBeGreaterThanOrEqual(3);
    expectOneGroup(net, [A, B, C]);
  });
});

function randomPoint(): Uint8Array {
  return generateP256().publicPoint;
}

/** A DAVE key package built by hand (RFC 9420 §10, §7.2), signed with a fresh key. */
function craftKeyPackage(userId: string, encryptionKey: Uint8Array): Uint8Array {
  const { privateKey, publicPoint: signatureKey } = generateP256();
  const signWithLabel = (label: string, content: Uint8Array): Uint8Array =>
    sign('sha256', signContent(label, content), { key: privateKey, dsaEncoding: 'der' });
  const u16s = (values: number[]) => (w: TlsWriter) => {
    for (const v of values) w.u16(v);
  };
  const leafTbs = new TlsWriter()
    .opaque(encryptionKey)
    .opaque(signatureKey)
    .u16(1)
    .opaque(new TlsWriter().u64(BigInt(userId)).finish())
    .vector(u16s([1]))
    .vector(u16s([2]))
    .vector(u16s([]))
    .vector(u16s([]))
    .vector(u16s([1]))
    .u8(1)
    .u64(0n)
    .u64(2n ** 64n - 1n)
    .vector(u16s([]))
    .finish();
  const leaf = new TlsWriter().raw(leafTbs).opaque(signWithLabel('LeafNodeTBS', leafTbs)).finish();
  const tbs = new TlsWriter()
    .u16(1)
    .u16(2)
    .opaque(randomPoint())
    .raw(leaf)
    .vector(u16s([]))
    .finish();
  return new TlsWriter().raw(tbs).opaque(signWithLabel('KeyPackageTBS', tbs)).finish();
}

/** A deterministic PRNG (mulberry32), so a failing sequence can be replayed. */
function prng(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

describe('DaveCall under churn', () => {
  it.each(Array.from({ length: 8 }, (_, i) => i + 1))(
    'ends in one group after random joins, leaves, rejoins and failures (seed %i)',
    (seed) => {
      const random = prng(seed);
      const users = [A, B, C, D, '100000000000000005', '100000000000000006'];
      const net = new Network();
      for (let round = 0; round < 60; round++) {
        const user = users[Math.floor(random() * users.length)] ?? A;
        const action = random();
        if (action < 0.45) net.join(user);
        else if (action < 0.7) {
          if (net.clients.has(user)) net.leave(user);
        } else if (action < 0.8) {
          // The next commit or welcome for this user is one its client cannot process.
          net.damageNext.add(user);
        } else {
          net.tick(1_000);
        }
        // Deliver only part of the traffic before the next event: races between them.
        const steps = Math.floor(random() * 12);
        for (let i = 0; i < steps && net.step(); i++);
      }
      net.pump();
      // Let the pending transitions and any stuck batch run into their timeouts.
      for (let i = 0; i < 3; i++) {
        net.tick(10_000);
        net.pump();
      }
      const present = [...net.clients.keys()];
      if (present.length >= 2) expectOneGroup(net, present);
      else expect(net.errors).toEqual([]);
    },
  );
});

/**
 * Measurement, off by default: `DAVE_SCALE_MEMBERS=99 npx vitest run packages/server/src/voice/dave`
 * grows a call one member at a time with real clients and prints the server's own time per op.
 */
const scaleMembers = Number(process.env['DAVE_SCALE_MEMBERS'] ?? 0);
describe.skipIf(!scaleMembers)('DaveCall at scale', () => {
  it(`forms a group of ${scaleMembers} members`, { timeout: 1_800_000 }, () => {
    const net = new Network();
    const timings = new Map<string, number[]>();
    const call = net.call as unknown as Record<string, (...args: unknown[]) => unknown>;
    for (const name of ['keyPackage', 'commitWelcome', 'transitionReady']) {
      const original = call[name]?.bind(net.call);
      call[name] = (...args: unknown[]) => {
        const start = performance.now();
        const result = original?.(...args);
        timings.set(name, [...(timings.get(name) ?? []), performance.now() - start]);
        return result;
      };
    }
    const ids = Array.from({ length: scaleMembers }, (_, k) =>
      String(300_000_000_000_000_000n + BigInt(k)),
    );
    for (const id of ids) {
      net.join(id);
      net.pump();
    }
    expectOneGroup(net, ids);
    const sizes = net.sent(28).map((d) => d.message.binary?.length ?? 0);
    const lines = [
      `members ${ids.length}, epoch ${net.call.epoch}, largest op 28 ${Math.max(...sizes)} B`,
    ];
    for (const [name, values] of timings) {
      values.sort((a, b) => a - b);
      const p50 = values[Math.floor(values.length / 2)] ?? 0;
      const p99 = values[Math.floor(values.length * 0.99)] ?? 0;
      lines.push(`${name}: n ${values.length}, p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  });
});

describe('DaveCall refuses what a member may not send', () => {
  function call(): DaveCall {
    const c = new DaveCall({ channelId: CHANNEL, clock: manualClock(0) });
    c.addMember(A);
    c.addMember(B);
    return c;
  }
  function keyPackageOf(userId: string): Uint8Array {
    const session = new DAVESession(1, userId, CHANNEL, {});
    let keyPackage: Uint8Array = new Uint8Array();
    session.on('keyPackage', (kp: Buffer) => (keyPackage = kp));
    session.reinit();
    return keyPackage;
  }

  it('answers random bytes and random damage with DaveProtocolError only', () => {
    const random = prng(42);
    const bytes = (length: number) => Uint8Array.from({ length }, () => Math.floor(random() * 256));
    const net = groupOf(A, B);
    net.join(C);
    net.pumpUntil(() => net.queue.some((d) => d.kind === 'server' && d.message.op === 28));
    const valid = net.queue.find((d) => d.kind === 'server' && d.message.op === 28);
    const payload = valid?.message.binary ?? new Uint8Array();
    const from = valid?.kind === 'server' ? valid.from : A;
    const inputs: Uint8Array[] = [];
    for (let i = 0; i < 300; i++) {
      inputs.push(bytes(Math.floor(random() * 600)));
      const damaged = Uint8Array.from(payload);
      for (let j = 0; j < 1 + Math.floor(random() * 4); j++) {
        damaged[Math.floor(random() * damaged.length)] = Math.floor(random() * 256);
      }
      inputs.push(damaged);
    }
    for (const input of inputs) {
      for (const feed of [
        () => net.call.keyPackage(from, input),
        () => net.call.commitWelcome(from, input),
      ]) {
        try {
          net.send(feed());
        } catch (error) {
          expect(error).toBeInstanceOf(DaveProtocolError);
        }
      }
    }
  });

  it("refuses another user's key package", () => {
    expect(() => call().keyPackage(A, keyPackageOf(B))).toThrow(DaveProtocolError);
  });

  it('refuses input from a user that is not in the call', () => {
    expect(() => call().keyPackage(C, keyPackageOf(C))).toThrow(DaveProtocolError);
    expect(() => call().transitionReady(C, 1)).toThrow(DaveProtocolError);
  });

  it("refuses a well-signed key package that reuses another member's encryption key", () => {
    const c = call();
    const victim = keyPackageOf(B);
    c.keyPackage(B, victim);
    const stolen = parseKeyPackage(victim).leafNode.encryptionKey;
    expect(() => c.keyPackage(A, craftKeyPackage(A, stolen))).toThrow(/another member's keys/);
    // The same construction with keys of its own is a valid key package.
    expect(c.keyPackage(A, craftKeyPackage(A, randomPoint())).length).toBeGreaterThan(0);
    expect(c.groupMembers()).toEqual([B]);
  });

  it('refuses bad transition ids and members beyond the limit', () => {
    const c = call();
    for (const id of [-1, 65_536, 1.5, Number.NaN]) {
      expect(() => c.transitionReady(A, id)).toThrow(DaveProtocolError);
      expect(() => c.invalidCommitWelcome(A, id)).toThrow(DaveProtocolError);
    }
    expect(c.transitionReady(A, 7)).toEqual([]);
    const small = new DaveCall({ channelId: CHANNEL, clock: manualClock(0), maxMembers: 2 });
    small.addMember(A);
    small.addMember(B);
    expect(() => small.addMember(C)).toThrow(/full/);
    expect(small.addMember(B).map((m) => m.op)).toEqual([25]);
    expect(() => small.addMember('not-a-snowflake')).toThrow(TypeError);
  });

  it('refuses every truncation and every flipped byte of a key package', () => {
    const keyPackage = keyPackageOf(A);
    const c = call();
    for (let length = 0; length < keyPackage.length; length++) {
      expect(() => c.keyPackage(A, keyPackage.subarray(0, length))).toThrow(DaveProtocolError);
    }
    for (let i = 0; i < keyPackage.length; i++) {
      const flipped = Uint8Array.from(keyPackage);
      flipped[i] = (flipped[i] ?? 0) ^ 0x01;
      expect(() => c.keyPackage(A, flipped)).toThrow(DaveProtocolError);
    }
    expect(() => c.keyPackage(A, new Uint8Array(20_000))).toThrow(DaveProtocolError);
    expect(c.keyPackage(A, keyPackage).length).toBe(0);
    expect(c.groupMembers()).toEqual([A]);
  });

  it('refuses malformed commits, and commits for another group, leaf or epoch', () => {
    const net = groupOf(A, B);
    net.join(C);
    net.pumpUntil(() => net.queue.some((d) => d.kind === 'server' && d.message.op === 28));
    const pending = net.queue.find((d) => d.kind === 'server' && d.message.op === 28);
    const valid = Uint8Array.from(pending?.message.binary ?? []);
    const from = pending?.kind === 'server' ? pending.from : '';
    const other = from === A ? B : A;
    const { call: c } = net;
    for (let length = 0; length < valid.length; length++) {
      expect(() => c.commitWelcome(from, valid.subarray(0, length))).toThrow(DaveProtocolError);
    }
    const tamper = (offset: number, value: number): Uint8Array => {
      const copy = Uint8Array.from(valid);
      copy[offset] = value;
      return copy;
    };
    // version(2) wire_format(2) group_id<V>(1+8) epoch(8) sender_type(1) leaf(4) …
    expect(() => c.commitWelcome(from, tamper(3, 2))).toThrow(/wire format/);
    expect(() => c.commitWelcome(from, tamper(12, (valid[12] ?? 0) ^ 1))).toThrow(/another group/);
    expect(() => c.commitWelcome(from, tamper(20, 9))).toThrow(/future epoch/);
    expect(() => c.commitWelcome(from, tamper(21, 2))).toThrow(/not a member/);
    expect(() => c.commitWelcome(from, tamper(25, 7))).toThrow(/leaf/);
    expect(() => c.commitWelcome(other, valid)).toThrow(/leaf/);
    expect(() => c.commitWelcome(from, Buffer.concat([valid, Buffer.of(0)]))).toThrow(
      DaveProtocolError,
    );
    expect(() => c.commitWelcome(from, new Uint8Array(600_000))).toThrow(DaveProtocolError);
    expect(net.call.epoch).toBe(1);
    net.pump();
    expectOneGroup(net, [A, B, C]);
  });
});
