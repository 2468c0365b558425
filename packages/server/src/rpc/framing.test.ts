import { IpcOpcodes as Op, RpcCloseCodes } from '@guildhall/protocol';
import { describe, expect, it } from 'vitest';
import { FrameDecoder, FrameError, encodeFrame } from './framing.js';

const header = (op: number, length: number) => {
  const bytes = Buffer.alloc(8);
  bytes.writeUInt32LE(op, 0);
  bytes.writeUInt32LE(length, 4);
  return bytes;
};

describe('IPC frames', () => {
  it('encodes little-endian opcode and byte length, then UTF-8 JSON', () => {
    const bytes = encodeFrame(Op.FRAME, { cmd: 'é' });
    expect(bytes.readUInt32LE(0)).toBe(1);
    expect(bytes.readUInt32LE(4)).toBe(Buffer.byteLength('{"cmd":"é"}'));
    expect(bytes.subarray(8).toString('utf8')).toBe('{"cmd":"é"}');
  });

  it('decodes frames split anywhere and several frames in one chunk', () => {
    const all = Buffer.concat([
      encodeFrame(Op.HANDSHAKE, { v: 1, client_id: '1' }),
      encodeFrame(Op.PING, 'ü'),
      encodeFrame(Op.CLOSE, {}),
    ]);
    const oneByOne = new FrameDecoder();
    const seen = [...all].flatMap((byte) => oneByOne.push(Buffer.of(byte)));
    const together = new FrameDecoder().push(all);
    const expected = [
      { op: Op.HANDSHAKE, payload: { v: 1, client_id: '1' } },
      { op: Op.PING, payload: 'ü' },
      { op: Op.CLOSE, payload: {} },
    ];
    expect(seen).toEqual(expected);
    expect(together).toEqual(expected);
  });

  it('reads an empty frame as null', () => {
    expect(new FrameDecoder().push(header(Op.CLOSE, 0))).toEqual([{ op: Op.CLOSE, payload: null }]);
  });

  it('refuses an unknown opcode and an oversized length from the header alone', () => {
    const decoder = new FrameDecoder(16);
    expect(() => decoder.push(header(7, 2))).toThrow(
      expect.objectContaining({ closeCode: RpcCloseCodes.CLOSE_UNSUPPORTED }),
    );
    expect(() => new FrameDecoder(16).push(header(Op.FRAME, 17))).toThrow(FrameError);
    expect(
      new FrameDecoder(16).push(Buffer.concat([header(Op.FRAME, 2), Buffer.from('{}')])),
    ).toHaveLength(1);
  });

  it('refuses bytes that are not UTF-8 JSON with 4005', () => {
    for (const body of [Buffer.of(0xff, 0xfe), Buffer.from('{"a":')]) {
      const bytes = Buffer.concat([header(Op.FRAME, body.length), body]);
      expect(() => new FrameDecoder().push(bytes)).toThrow(
        expect.objectContaining({ closeCode: RpcCloseCodes.INVALID_ENCODING }),
      );
    }
  });
});
