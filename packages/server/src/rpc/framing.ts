/**
 * @module rpc/framing: the IPC transport's frames (docs/rpc.md, Framing): a little-endian
 * uint32 opcode, a little-endian uint32 length, then that many bytes of UTF-8 JSON. The decoder
 * takes the bytes as the socket delivers them: several frames in one read are all returned, a
 * frame split across reads waits for its rest, and a frame the daemon will not read (an unknown
 * opcode, a length over the limit, bytes that are not UTF-8 JSON of an object or a string) is a
 * {@link FrameError} naming the close code to answer with.
 */
import { IpcOpcodes, RpcCloseCodes } from '@guildhall/protocol';

/** The bytes before a frame's JSON: opcode and length. */
export const FRAME_HEADER_BYTES = 8;
/** The longest JSON a frame may carry: far above any command, small enough to hold in memory. */
export const MAX_FRAME_BYTES = 64 * 1024;

export type IpcOpcode = (typeof IpcOpcodes)[keyof typeof IpcOpcodes];

/** One decoded frame: its opcode and its JSON value (an object, or PING's string). */
export interface IpcFrame {
  op: IpcOpcode;
  payload: unknown;
}

/** A frame the daemon refuses; `closeCode` is the CLOSE it answers before hanging up. */
export class FrameError extends Error {
  override readonly name = 'FrameError';
  readonly closeCode: number;
  constructor(closeCode: number, message: string) {
    super(message);
    this.closeCode = closeCode;
  }
}

const OPCODES = new Set<number>(Object.values(IpcOpcodes));

function isOpcode(op: number): op is IpcOpcode {
  return OPCODES.has(op);
}

/** Encodes one frame. */
export function encodeFrame(op: IpcOpcode, payload: unknown): Buffer {
  const json = Buffer.from(payload === undefined ? 'null' : JSON.stringify(payload), 'utf8');
  const header = Buffer.alloc(FRAME_HEADER_BYTES);
  header.writeUInt32LE(op, 0);
  header.writeUInt32LE(json.length, 4);
  return Buffer.concat([header, json]);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function parsePayload(bytes: Buffer): unknown {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    throw new FrameError(RpcCloseCodes.INVALID_ENCODING, 'The frame is not UTF-8.');
  }
  // An empty frame carries nothing (some clients send CLOSE that way).
  if (text === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new FrameError(RpcCloseCodes.INVALID_ENCODING, 'The frame is not JSON.');
  }
  return value;
}

/** Collects a connection's bytes and cuts them into frames. */
export class FrameDecoder {
  #buffer: Buffer = Buffer.alloc(0);
  readonly maxFrameBytes: number;

  constructor(maxFrameBytes: number = MAX_FRAME_BYTES) {
    this.maxFrameBytes = maxFrameBytes;
  }

  /**
   * Adds the bytes of one read; returns every frame now complete, in order. Throws a
   * {@link FrameError} at the first frame that cannot be read (the frames before it were returned
   * by earlier calls or are lost with the connection, which is closed anyway).
   */
  push(chunk: Buffer): IpcFrame[] {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const frames: IpcFrame[] = [];
    while (this.#buffer.length >= FRAME_HEADER_BYTES) {
      const op = this.#buffer.readUInt32LE(0);
      const length = this.#buffer.readUInt32LE(4);
      // Both are known from the header: refuse before waiting for (or buffering) the body.
      if (!isOpcode(op)) {
        throw new FrameError(RpcCloseCodes.CLOSE_UNSUPPORTED, `Unknown opcode ${op}.`);
      }
      if (length > this.maxFrameBytes) {
        throw new FrameError(
          RpcCloseCodes.CLOSE_UNSUPPORTED,
          `The frame is ${length} bytes; at most ${this.maxFrameBytes} are read.`,
        );
      }
      if (this.#buffer.length < FRAME_HEADER_BYTES + length) break;
      const body = this.#buffer.subarray(FRAME_HEADER_BYTES, FRAME_HEADER_BYTES + length);
      this.#buffer = this.#buffer.subarray(FRAME_HEADER_BYTES + length);
      frames.push({ op, payload: parsePayload(body) });
    }
    return frames;
  }
}
