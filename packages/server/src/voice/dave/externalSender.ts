/**
 * The server's MLS external sender (RFC 9420 §12.1.8.1): a P-256 signing key announced to the
 * members in op 25, with which the server signs the Add and Remove proposals of op 27. It can
 * propose, never read: the key signs proposals and has no part in the group's secrets.
 */
import { createECDH, createPrivateKey, sign, type KeyObject } from 'node:crypto';
import {
  ContentType,
  CredentialType,
  MLS_VERSION,
  ProposalType,
  SenderType,
  WireFormat,
  refHash,
  signContent,
} from './mls.js';
import { TlsWriter } from './tls.js';

export interface SignedProposal {
  /** The MLSMessage (PublicMessage from the external sender), as op 27 carries it. */
  message: Uint8Array;
  /** Its ProposalRef, by which commits name it and revocations withdraw it. */
  ref: Uint8Array;
}

/** Our index in the group's external_senders extension, which lists only us. */
const SENDER_INDEX = 0;

export class ExternalSender {
  /** The marshalled ExternalSender struct: `signature_key<V>`, Credential. Op 25's payload. */
  readonly serialized: Uint8Array;
  private readonly privateKey: KeyObject;

  private constructor(privateKey: KeyObject, publicPoint: Uint8Array) {
    this.privateKey = privateKey;
    this.serialized = new TlsWriter()
      .opaque(publicPoint)
      .u16(CredentialType.BASIC)
      // The credential names no user: identity 0 as u64, outside the snowflake range.
      .opaque(new Uint8Array(8))
      .finish();
  }

  static generate(): ExternalSender {
    const { privateKey, publicPoint } = generateP256();
    return new ExternalSender(privateKey, publicPoint);
  }

  /** A proposal for the group `groupId` at `epoch`, signed as the group's external sender. */
  propose(groupId: Uint8Array, epoch: bigint, proposal: Uint8Array): SignedProposal {
    const content = new TlsWriter()
      .opaque(groupId)
      .u64(epoch)
      .u8(SenderType.EXTERNAL)
      .u32(SENDER_INDEX)
      .opaque(new Uint8Array())
      .u8(ContentType.PROPOSAL)
      .raw(proposal)
      .finish();
    // FramedContentTBS of a non-member sender carries no GroupContext (RFC 9420 §6.1).
    const tbs = new TlsWriter()
      .u16(MLS_VERSION)
      .u16(WireFormat.PUBLIC_MESSAGE)
      .raw(content)
      .finish();
    const signature = sign('sha256', signContent('FramedContentTBS', tbs), {
      key: this.privateKey,
      dsaEncoding: 'der',
    });
    // AuthenticatedContent = wire_format, FramedContent, FramedContentAuthData (signature only).
    const authenticated = new TlsWriter()
      .u16(WireFormat.PUBLIC_MESSAGE)
      .raw(content)
      .opaque(signature)
      .finish();
    const message = new TlsWriter().u16(MLS_VERSION).raw(authenticated).finish();
    return { message, ref: refHash('MLS 1.0 Proposal Reference', authenticated) };
  }
}

export function addProposal(keyPackage: Uint8Array): Uint8Array {
  return new TlsWriter().u16(ProposalType.ADD).raw(keyPackage).finish();
}

export function removeProposal(leafIndex: number): Uint8Array {
  return new TlsWriter().u16(ProposalType.REMOVE).u32(leafIndex).finish();
}

/** Op 27 payload: `bool isRevoke` then the proposals (append) or their refs (revoke). */
export function proposalsPayload(messages: readonly Uint8Array[]): Uint8Array {
  return new TlsWriter()
    .u8(0)
    .vector((w) => {
      for (const message of messages) w.raw(message);
    })
    .finish();
}

export function revokePayload(refs: readonly Uint8Array[]): Uint8Array {
  return new TlsWriter()
    .u8(1)
    .vector((w) => {
      for (const ref of refs) w.opaque(ref);
    })
    .finish();
}

/**
 * A new P-256 key pair: the private key to sign with and the public key as its uncompressed
 * point (0x04 || x || y). Made with ECDH and imported, not with `generateKeyPairSync` and a JWK
 * export: on Node 20, a garbage collection during `export({ format: 'jwk' })` can finalize an
 * earlier key generation job that waits on the lock the export holds, and the thread stops.
 */
export function generateP256(): { privateKey: KeyObject; publicPoint: Uint8Array } {
  const ecdh = createECDH('prime256v1');
  const publicPoint = ecdh.generateKeys();
  const d = Buffer.alloc(32);
  const scalar = ecdh.getPrivateKey();
  scalar.copy(d, 32 - scalar.length);
  const privateKey = createPrivateKey({
    key: {
      kty: 'EC',
      crv: 'P-256',
      d: d.toString('base64url'),
      x: publicPoint.subarray(1, 33).toString('base64url'),
      y: publicPoint.subarray(33, 65).toString('base64url'),
    },
    format: 'jwk',
  });
  return { privateKey, publicPoint: new Uint8Array(publicPoint) };
}
