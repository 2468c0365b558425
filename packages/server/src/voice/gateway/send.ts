/**
 * @module voice/gateway/send: what leaves for a connection or a member. Hello and Heartbeat ACK go
 * outside the sequence; every other frame, JSON or binary, gets the member's next sequence number
 * and a place in its replay buffer for a Resume. A client that does not read what it is sent loses
 * its socket (its place waits for a Resume).
 */
import type { DaveMessage } from '../dave/index.js';
import { MAX_UNREAD_BYTES, RESUME_BUFFER_BYTES, RESUME_BUFFER_FRAMES } from './limits.js';
import type { Call, Conn, Member } from './state.js';

export const write = (conn: Conn, frame: string | Buffer) => {
  if (conn.ws.readyState !== conn.ws.OPEN) return;
  // A client that does not read: its socket goes (its place waits for a Resume).
  if (conn.ws.bufferedAmount > MAX_UNREAD_BYTES) {
    conn.ws.terminate();
    return;
  }
  conn.ws.send(frame);
};

/** A frame outside the sequence (Hello, Heartbeat ACK): never replayed. */
export const sendUnsequenced = (conn: Conn, op: number, d: unknown) => {
  write(conn, JSON.stringify({ op, d }));
};

/** A sequenced frame: kept for a Resume, written when the member is connected. */
export const push = (member: Member, frameOf: (seq: number) => string | Buffer) => {
  // 65535 wraps to 1: @discordjs/voice takes a JSON frame's `seq` 0 for no sequence number.
  member.seq = member.seq >= 0xffff ? 1 : member.seq + 1;
  const seq = member.seq;
  const frame = frameOf(seq);
  member.outbox.push({ seq, frame });
  member.outboxBytes += frame.length;
  while (
    member.outbox.length > RESUME_BUFFER_FRAMES ||
    (member.outboxBytes > RESUME_BUFFER_BYTES && member.outbox.length > 1)
  ) {
    const dropped = member.outbox.shift();
    if (dropped !== undefined) member.outboxBytes -= dropped.frame.length;
  }
  if (member.conn !== null) write(member.conn, frame);
};

export const send = (member: Member, op: number, d: unknown) => {
  push(member, (seq) => JSON.stringify({ op, d, seq }));
};

/** A binary frame: `[seq u16 BE][opcode u8][payload]`. */
export const sendBinary = (member: Member, op: number, payload: Uint8Array) => {
  push(member, (seq) => {
    const frame = Buffer.allocUnsafe(3 + payload.byteLength);
    frame.writeUInt16BE(seq, 0);
    frame[2] = op;
    frame.set(payload, 3);
    return frame;
  });
};

export const route = (call: Call, messages: readonly DaveMessage[]) => {
  for (const message of messages) {
    for (const userId of message.to) {
      const member = call.members.get(userId);
      if (member === undefined) continue;
      if (message.binary === undefined) send(member, message.op, message.json ?? null);
      else sendBinary(member, message.op, message.binary);
    }
  }
};

export const others = (member: Member) =>
  [...member.call.members.values()].filter((m) => m !== member && m.selected);
