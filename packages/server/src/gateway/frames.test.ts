import { PassThrough } from 'node:stream';
import { constants as zlibConstants, createInflate } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { Transport } from './frames.js';

/** A socket stand-in that keeps what the transport sends, in order. */
function fakeSocket() {
  const sent: Buffer[] = [];
  const ws = {
    readyState: 1,
    bufferedAmount: 0,
    send(data: string | Buffer) {
      sent.push(Buffer.isBuffer(data) ? data : Buffer.from(data));
    },
    close() {
      this.readyState = 3;
    },
  };
  return { ws: ws as unknown as WebSocket, sent };
}

/** Inflates messages with one context for the whole connection, as the platform's clients do. */
function streamReader() {
  const inflate = createInflate({ finishFlush: zlibConstants.Z_SYNC_FLUSH });
  return async (message: Buffer): Promise<string> => {
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => chunks.push(chunk);
    inflate.on('data', onData);
    await new Promise<void>((resolve, reject) => {
      inflate.once('error', reject);
      inflate.write(message, () => {
        inflate.flush(zlibConstants.Z_SYNC_FLUSH, () => {
          resolve();
        });
      });
    });
    inflate.off('data', onData);
    return Buffer.concat(chunks).toString('utf8');
  };
}

describe('Transport with zlib-stream', () => {
  it('holds no deflate context before login, and the client reads one stream throughout', async () => {
    const { ws, sent } = fakeSocket();
    const transport = new Transport(ws, {
      socket: new PassThrough(),
      encoding: 'json',
      zlibStream: true,
    });
    const hello = '{"op":10,"d":{"heartbeat_interval":41250},"s":null,"t":null}';
    const ack = '{"op":11,"d":null,"s":null,"t":null}';
    transport.send(hello);
    transport.send(ack);
    transport.send(ack);
    expect(transport.hasDeflateContext).toBe(false);
    expect(sent).toHaveLength(3);
    transport.startStream();
    expect(transport.hasDeflateContext).toBe(true);
    const ready = `{"op":0,"t":"READY","d":{"pad":"${'x'.repeat(20_000)}"},"s":1}`;
    const guild = `{"op":0,"t":"GUILD_CREATE","d":{"pad":"${'x'.repeat(20_000)}"},"s":2}`;
    transport.send(ready);
    transport.send(guild);
    await expect.poll(() => sent.length).toBe(5);
    const read = streamReader();
    const texts: string[] = [];
    for (const message of sent) {
      // Every message ends with a sync flush, none with a final block.
      expect(message.subarray(-4)).toEqual(Buffer.from([0, 0, 255, 255]));
      texts.push(await read(message));
    }
    expect(texts).toEqual([hello, ack, ack, ready, guild]);
    transport.dispose();
    expect(transport.hasDeflateContext).toBe(false);
  });
});
