/**
 * The MLS structures (RFC 9420) the delivery service reads: members' key packages, their commits
 * and welcomes. The server holds no group secret, so it checks what it can see in the clear —
 * shape, group id, epoch, sender, credential, the key package's own signatures, and which
 * proposals a commit references — and leaves the cryptography of the group to the members.
 */
import { createHash, createPublicKey, verify, type KeyObject } from 'node:crypto';
import { DaveProtocolError, TlsReader, TlsWriter } from './tls.js';

export const MLS_VERSION = 1;
/** MLS_128_DHKEMP256_AES128GCM_SHA256_P256, the only suite of DAVE protocol version 1. */
export const DAVE_CIPHER_SUITE = 2;

export const WireFormat = { PUBLIC_MESSAGE: 1, WELCOME: 3, KEY_PACKAGE: 5 } as const;
export const SenderType = { MEMBER: 1, EXTERNAL: 2 } as const;
export const ContentType = { PROPOSAL: 2, COMMIT: 3 } as const;
export const ProposalType = { ADD: 1, REMOVE: 3 } as const;
export const CredentialType = { BASIC: 1 } as const;
const LeafNodeSource = { KEY_PACKAGE: 1, UPDATE: 2, COMMIT: 3 } as const;
const ProposalOrRefType = { PROPOSAL: 1, REFERENCE: 2 } as const;

/** SHA-256 output: the size of every reference (KeyPackageRef, ProposalRef) of suite 2. */
export const REF_BYTES = 32;

export interface LeafNode {
  encryptionKey: Uint8Array;
  signatureKey: Uint8Array;
  /** The basic credential's identity (DAVE: the user id as u64 big-endian). */
  identity: Uint8Array;
  source: number;
  /** LeafNodeTBS for a key-package leaf (everything before the signature). */
  signedContent: Uint8Array;
  signature: Uint8Array;
}

export interface KeyPackage {
  cipherSuite: number;
  initKey: Uint8Array;
  leafNode: LeafNode;
  /** The exact encoding, as it goes into an Add proposal. */
  bytes: Uint8Array;
  signedContent: Uint8Array;
  signature: Uint8Array;
}

export interface CommitMessage {
  groupId: Uint8Array;
  epoch: bigint;
  senderLeaf: number;
  proposalRefs: Uint8Array[];
  /** The MLSMessage's exact encoding, relayed in op 29. */
  bytes: Uint8Array;
}

export interface WelcomeMessage {
  /** KeyPackageRefs of the members this welcome is for. */
  newMembers: Uint8Array[];
  bytes: Uint8Array;
}

function u16List(reader: TlsReader, what: string): number[] {
  return reader.vector(what, (r) => r.u16(what));
}

function readCredentialIdentity(reader: TlsReader): Uint8Array {
  const type = reader.u16('credential type');
  if (type !== CredentialType.BASIC) {
    throw new DaveProtocolError(`credential type ${type} is not basic`);
  }
  return reader.opaque('credential identity');
}

export function readLeafNode(reader: TlsReader): LeafNode {
  const start = reader.position;
  const encryptionKey = reader.opaque('encryption key');
  const signatureKey = reader.opaque('signature key');
  const identity = readCredentialIdentity(reader);
  for (const what of ['versions', 'cipher suites', 'extensions', 'proposals', 'credentials']) {
    u16List(reader, `capability ${what}`);
  }
  const source = reader.u8('leaf node source');
  if (source === LeafNodeSource.KEY_PACKAGE) {
    reader.u64('lifetime not_before');
    reader.u64('lifetime not_after');
  } else if (source === LeafNodeSource.COMMIT) {
    reader.opaque('parent hash');
  } else if (source !== LeafNodeSource.UPDATE) {
    throw new DaveProtocolError(`unknown leaf node source ${source}`);
  }
  reader.vector('leaf extensions', (r) => {
    r.u16('extension type');
    r.opaque('extension data');
  });
  const signedContent = reader.since(start);
  const signature = reader.opaque('leaf node signature');
  return { encryptionKey, signatureKey, identity, source, signedContent, signature };
}

export function readKeyPackage(reader: TlsReader): KeyPackage {
  const start = reader.position;
  const version = reader.u16('key package version');
  if (version !== MLS_VERSION) throw new DaveProtocolError(`MLS version ${version}`);
  const cipherSuite = reader.u16('cipher suite');
  const initKey = reader.opaque('init key');
  const leafNode = readLeafNode(reader);
  if (leafNode.source !== LeafNodeSource.KEY_PACKAGE) {
    throw new DaveProtocolError('key package leaf node is not from a key package');
  }
  reader.vector('key package extensions', (r) => {
    r.u16('extension type');
    r.opaque('extension data');
  });
  const signedContent = reader.since(start);
  const signature = reader.opaque('key package signature');
  return {
    cipherSuite,
    initKey,
    leafNode,
    bytes: reader.since(start),
    signedContent,
    signature,
  };
}

/** SignContent (RFC 9420 §5.1.2): what ECDSA signs for `SignWithLabel(key, label, content)`. */
export function signContent(label: string, content: Uint8Array): Uint8Array {
  return new TlsWriter()
    .opaque(new TextEncoder().encode(`MLS 1.0 ${label}`))
    .opaque(content)
    .finish();
}

/** RefHash (RFC 9420 §5.2) with SHA-256. */
export function refHash(label: string, value: Uint8Array): Uint8Array {
  const input = new TlsWriter().opaque(new TextEncoder().encode(label)).opaque(value).finish();
  return new Uint8Array(createHash('sha256').update(input).digest());
}

export function keyPackageRef(keyPackageBytes: Uint8Array): Uint8Array {
  return refHash('MLS 1.0 KeyPackage Reference', keyPackageBytes);
}

/** SubjectPublicKeyInfo prefix of a P-256 key; the key itself is an uncompressed SEC1 point. */
const P256_SPKI_PREFIX = Buffer.from('3059301306072a8648ce3d020106082a8648ce3d030107034200', 'hex');

export function p256PublicKey(point: Uint8Array): KeyObject {
  if (point.length !== 65 || point[0] !== 0x04) {
    throw new DaveProtocolError('signature key is not an uncompressed P-256 point');
  }
  try {
    return createPublicKey({
      key: Buffer.concat([P256_SPKI_PREFIX, point]),
      format: 'der',
      type: 'spki',
    });
  } catch {
    throw new DaveProtocolError('signature key is not a point of P-256');
  }
}

export function verifyWithLabel(
  key: KeyObject,
  label: string,
  signed: { content: Uint8Array; signature: Uint8Array },
): boolean {
  try {
    return verify('sha256', signContent(label, signed.content), key, signed.signature);
  } catch {
    return false;
  }
}

/**
 * A member's key package (op 26), checked for DAVE: MLS 1.0, cipher suite 2, a basic credential,
 * and valid signatures of its leaf node and of itself by the leaf's signature key.
 */
export function parseKeyPackage(payload: Uint8Array): KeyPackage {
  const reader = new TlsReader(payload);
  const keyPackage = readKeyPackage(reader);
  reader.end('key package');
  if (keyPackage.cipherSuite !== DAVE_CIPHER_SUITE) {
    throw new DaveProtocolError(
      `cipher suite ${keyPackage.cipherSuite} is not ${DAVE_CIPHER_SUITE}`,
    );
  }
  const key = p256PublicKey(keyPackage.leafNode.signatureKey);
  const leaf = keyPackage.leafNode;
  if (
    !verifyWithLabel(key, 'LeafNodeTBS', { content: leaf.signedContent, signature: leaf.signature })
  ) {
    throw new DaveProtocolError('bad leaf node signature');
  }
  const signed = { content: keyPackage.signedContent, signature: keyPackage.signature };
  if (!verifyWithLabel(key, 'KeyPackageTBS', signed)) {
    throw new DaveProtocolError('bad key package signature');
  }
  return keyPackage;
}

function readHpkeCiphertext(reader: TlsReader): void {
  reader.opaque('kem output');
  reader.opaque('ciphertext');
}

function readCommit(reader: TlsReader): Uint8Array[] {
  const refs = reader.vector(
    'commit proposals',
    (r) => {
      const type = r.u8('proposal or ref');
      if (type === ProposalOrRefType.PROPOSAL) {
        throw new DaveProtocolError('commit carries an inline proposal');
      }
      if (type !== ProposalOrRefType.REFERENCE) {
        throw new DaveProtocolError(`unknown proposal-or-ref type ${type}`);
      }
      const ref = r.opaque('proposal ref');
      if (ref.length !== REF_BYTES) throw new DaveProtocolError('proposal ref of a wrong size');
      return ref;
    },
    1024,
  );
  const hasPath = reader.u8('optional path');
  if (hasPath === 1) {
    readLeafNode(reader);
    reader.vector('update path nodes', (r) => {
      r.opaque('path node encryption key');
      r.vector('encrypted path secrets', readHpkeCiphertext);
    });
  } else if (hasPath !== 0) {
    throw new DaveProtocolError('invalid optional flag');
  }
  return refs;
}

/** A PublicMessage commit from a member (first part of op 28). */
export function readCommitMessage(reader: TlsReader): CommitMessage {
  const start = reader.position;
  const version = reader.u16('MLS version');
  if (version !== MLS_VERSION) throw new DaveProtocolError(`MLS version ${version}`);
  const wireFormat = reader.u16('wire format');
  if (wireFormat !== WireFormat.PUBLIC_MESSAGE) {
    throw new DaveProtocolError(`commit wire format ${wireFormat} is not a public message`);
  }
  const groupId = reader.opaque('group id');
  const epoch = reader.u64('epoch');
  const senderType = reader.u8('sender type');
  if (senderType !== SenderType.MEMBER) {
    throw new DaveProtocolError(`commit sender type ${senderType} is not a member`);
  }
  const senderLeaf = reader.u32('sender leaf index');
  reader.opaque('authenticated data');
  const contentType = reader.u8('content type');
  if (contentType !== ContentType.COMMIT) {
    throw new DaveProtocolError(`content type ${contentType} is not a commit`);
  }
  const proposalRefs = readCommit(reader);
  reader.opaque('signature');
  reader.opaque('confirmation tag');
  reader.opaque('membership tag');
  return { groupId, epoch, senderLeaf, proposalRefs, bytes: reader.since(start) };
}

/** A Welcome, bare (as libdave writes it) or wrapped in an MLSMessage. */
export function readWelcome(reader: TlsReader): WelcomeMessage {
  const start = reader.position;
  let cipherSuite = reader.u16('welcome cipher suite');
  if (cipherSuite === MLS_VERSION) {
    const wireFormat = reader.u16('wire format');
    if (wireFormat !== WireFormat.WELCOME) {
      throw new DaveProtocolError(`wire format ${wireFormat} is not a welcome`);
    }
    cipherSuite = reader.u16('welcome cipher suite');
  }
  if (cipherSuite !== DAVE_CIPHER_SUITE) {
    throw new DaveProtocolError(`welcome cipher suite ${cipherSuite}`);
  }
  const newMembers = reader.vector('welcome secrets', (r) => {
    const ref = r.opaque('new member');
    readHpkeCiphertext(r);
    return ref;
  });
  reader.opaque('encrypted group info');
  return { newMembers, bytes: reader.since(start) };
}

/** Op 28: a commit, then a welcome when the commit adds members. */
export function parseCommitWelcome(payload: Uint8Array): {
  commit: CommitMessage;
  welcome: WelcomeMessage | null;
} {
  const reader = new TlsReader(payload);
  const commit = readCommitMessage(reader);
  const welcome = reader.remaining > 0 ? readWelcome(reader) : null;
  reader.end('commit and welcome');
  return { commit, welcome };
}
