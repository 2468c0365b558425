import { createHash } from 'node:crypto';
import { DAVESession, type ProposalsOperationType } from '@snazzah/davey';
import { describe, expect, it } from 'vitest';
import {
  ExternalSender,
  addProposal,
  proposalsPayload,
  removeProposal,
  revokePayload,
} from './externalSender.js';
import {
  keyPackageRef,
  p256PublicKey,
  parseCommitWelcome,
  parseKeyPackage,
  readCommitMessage,
  verifyWithLabel,
} from './mls.js';
import { DaveProtocolError, TlsReader, TlsWriter, toHex } from './tls.js';

const CHANNEL = '1300000000000000001';
const GROUP_ID = new TlsWriter().u64(BigInt(CHANNEL)).finish();
// eslint-disable-next-line @typescript-eslint/no-unsafe-enum-assignment -- davey's ProposalsOperationType.APPEND: a const enum, which isolated modules cannot read
const APPEND = 0 as ProposalsOperationType;

describe('TLS codec', () => {
  it('round-trips integers and varint lengths at every size boundary', () => {
    const lengths = [0, 1, 63, 64, 16_383, 16_384, 70_000];
    const writer = new TlsWriter()
      .u8(0xab)
      .u16(0xbeef)
      .u32(0xdead_beef)
      .u64(2n ** 64n - 1n);
    for (const length of lengths) writer.opaque(new Uint8Array(length).fill(length & 0xff));
    const reader = new TlsReader(writer.finish());
    expect([reader.u8(), reader.u16(), reader.u32(), reader.u64()]).toEqual([
      0xab,
      0xbeef,
      0xdead_beef,
      2n ** 64n - 1n,
    ]);
    for (const length of lengths) {
      const bytes = reader.opaque();
      expect(bytes.length).toBe(length);
      expect(bytes.every((b) => b === (length & 0xff))).toBe(true);
    }
    reader.end('test');
  });

  it('writes the shortest varint and refuses longer or invalid ones', () => {
    expect(toHex(new TlsWriter().varint(63).finish())).toBe('3f');
    expect(toHex(new TlsWriter().varint(64).finish())).toBe('4040');
    expect(toHex(new TlsWriter().varint(16_384).finish())).toBe('80004000');
    expect(() => new TlsWriter().varint(2 ** 30)).toThrow(RangeError);
    for (const hex of ['4001', '80000001', 'c0000000000000', '40', '8000']) {
      expect(() => new TlsReader(Buffer.from(hex, 'hex')).varint()).toThrow(DaveProtocolError);
    }
  });

  it('reads vectors item by item and refuses lengths past the end or trailing bytes', () => {
    const bytes = new TlsWriter().vector((w) => w.u16(1).u16(2).u16(3)).finish();
    expect(new TlsReader(bytes).vector('v', (r) => r.u16())).toEqual([1, 2, 3]);
    // An odd-length vector of u16: the last item is cut.
    expect(() => new TlsReader(Uint8Array.of(3, 0, 1, 0)).vector('v', (r) => r.u16())).toThrow(
      DaveProtocolError,
    );
    expect(() => new TlsReader(Uint8Array.of(5, 1, 2)).opaque()).toThrow(/truncated/);
    const reader = new TlsReader(Uint8Array.of(1, 2));
    reader.u8();
    expect(() => {
      reader.end('x');
    }).toThrow(/trailing/);
  });
});

describe('MLS structures', () => {
  it("parses davey's key package: suite 2, basic credential of the user id, valid signatures", () => {
    const session = new DAVESession(1, '100000000000000001', CHANNEL);
    const bytes = session.getSerializedKeyPackage();
    const keyPackage = parseKeyPackage(bytes);
    expect(keyPackage.cipherSuite).toBe(2);
    expect(toHex(keyPackage.leafNode.identity)).toBe(
      BigInt('100000000000000001').toString(16).padStart(16, '0'),
    );
    expect(toHex(keyPackage.bytes)).toBe(toHex(bytes));
    expect(keyPackage.leafNode.signatureKey.length).toBe(65);
  });

  it('signs external proposals davey accepts, with the ProposalRef its commit names', () => {
    const sender = ExternalSender.generate();
    const creator = new DAVESession(1, '100000000000000001', CHANNEL);
    const joiner = new DAVESession(1, '100000000000000002', CHANNEL);
    creator.getSerializedKeyPackage();
    const keyPackage = joiner.getSerializedKeyPackage();
    creator.setExternalSender(Buffer.from(sender.serialized));

    const proposal = sender.propose(GROUP_ID, 0n, addProposal(keyPackage));
    // PublicMessage: version 1, wire format 1, the group, epoch 0, external sender 0, proposal.
    expect(toHex(proposal.message.subarray(0, 4))).toBe('00010001');
    const payload = proposalsPayload([proposal.message]);
    expect(payload[0]).toBe(0);
    const { commit, welcome } = creator.processProposals(APPEND, Buffer.from(payload.subarray(1)), [
      '100000000000000002',
    ]);
    if (!commit || !welcome) throw new Error('no commit');

    const parsed = parseCommitWelcome(Buffer.concat([commit, welcome]));
    expect(toHex(parsed.commit.groupId)).toBe(toHex(GROUP_ID));
    expect(parsed.commit.epoch).toBe(0n);
    expect(parsed.commit.senderLeaf).toBe(0);
    expect(parsed.commit.proposalRefs.map(toHex)).toEqual([toHex(proposal.ref)]);
    expect(toHex(parsed.commit.bytes)).toBe(toHex(commit));
    expect(parsed.welcome?.newMembers.map(toHex)).toEqual([toHex(keyPackageRef(keyPackage))]);
    joiner.setExternalSender(Buffer.from(sender.serialized));
    joiner.processWelcome(welcome);
    expect(joiner.ownLeafIndex).toBe(1);
  });

  it('verifies its own external-sender signature and computes the RFC 9420 ref', () => {
    const sender = ExternalSender.generate();
    const reader = new TlsReader(sender.serialized);
    const key = p256PublicKey(reader.opaque());
    expect(reader.u16()).toBe(1);
    expect(reader.opaque().length).toBe(8);
    reader.end('external sender');

    const { message, ref } = sender.propose(GROUP_ID, 7n, removeProposal(3));
    const body = new TlsReader(message);
    expect([body.u16(), body.u16()]).toEqual([1, 1]);
    const contentStart = body.position;
    expect(body.opaque()).toEqual(GROUP_ID);
    expect(body.u64()).toBe(7n);
    expect([body.u8(), body.u32()]).toEqual([2, 0]);
    expect(body.opaque().length).toBe(0);
    expect([body.u8(), body.u16(), body.u32()]).toEqual([2, 3, 3]);
    const content = message.subarray(contentStart, body.position);
    const signature = body.opaque();
    body.end('proposal');
    const tbs = new TlsWriter().u16(1).u16(1).raw(content).finish();
    expect(verifyWithLabel(key, 'FramedContentTBS', { content: tbs, signature })).toBe(true);
    expect(verifyWithLabel(key, 'FramedContentTBS', { content: content, signature })).toBe(false);

    const authenticated = message.subarray(2);
    const refInput = new TlsWriter()
      .opaque(new TextEncoder().encode('MLS 1.0 Proposal Reference'))
      .opaque(authenticated)
      .finish();
    expect(toHex(ref)).toBe(createHash('sha256').update(refInput).digest('hex'));
  });

  it('writes revocations as a vector of opaque refs', () => {
    const refs = [new Uint8Array(32).fill(1), new Uint8Array(32).fill(2)];
    const reader = new TlsReader(revokePayload(refs));
    expect(reader.u8()).toBe(1);
    expect(reader.vector('refs', (r) => toHex(r.opaque()))).toEqual(refs.map(toHex));
    reader.end('revoke');
  });

  it('refuses commits with inline proposals, non-commit content and non-member senders', () => {
    const framed = (fill: (w: TlsWriter) => void): TlsReader => {
      const w = new TlsWriter().u16(1).u16(1).opaque(GROUP_ID).u64(0n);
      fill(w);
      return new TlsReader(w.finish());
    };
    const inline = framed((w) =>
      w
        .u8(1)
        .u32(0)
        .opaque(new Uint8Array())
        .u8(3)
        .vector((v) => v.u8(1).raw(removeProposal(1))),
    );
    expect(() => readCommitMessage(inline)).toThrow(/inline proposal/);
    const proposal = framed((w) => w.u8(1).u32(0).opaque(new Uint8Array()).u8(2));
    expect(() => readCommitMessage(proposal)).toThrow(/not a commit/);
    const external = framed((w) => w.u8(2).u32(0));
    expect(() => readCommitMessage(external)).toThrow(/not a member/);
    const shortRef = framed((w) =>
      w
        .u8(1)
        .u32(0)
        .opaque(new Uint8Array())
        .u8(3)
        .vector((v) => v.u8(2).opaque(new Uint8Array(31))),
    );
    expect(() => readCommitMessage(shortRef)).toThrow(/size/);
  });
});
