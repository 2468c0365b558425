/**
 * @module rpc/ipcTransport: an RPC connection on the `discord-ipc-{n}` socket: the bytes read
 * are decoded into frames (rpc/framing.ts) for the connection, its answers are encoded back, and
 * a close is a CLOSE frame `{code, message}` after which the daemon hangs up.
 */
import type { Socket } from 'node:net';
import { IpcOpcodes } from '@guildhall/protocol';
import { RpcConnection, type ConnectionDeps } from './connection.js';
import { FrameDecoder, FrameError, encodeFrame } from './framing.js';

export function ipcConnection(socket: Socket, deps: ConnectionDeps): RpcConnection {
  const decoder = new FrameDecoder(deps.maxFrameBytes);
  const connection = new RpcConnection(
    {
      send: (op, payload) => {
        if (!socket.destroyed) socket.write(encodeFrame(op, payload));
      },
      close: (code, message) => {
        if (socket.destroyed) return;
        // Destroyed once the CLOSE is written, whether or not the client hangs up its side.
        socket.end(encodeFrame(IpcOpcodes.CLOSE, { code, message }), () => {
          socket.destroy();
        });
      },
    },
    deps,
  );
  socket.on('data', (chunk: Buffer) => {
    let frames;
    try {
      frames = decoder.push(chunk);
    } catch (err) {
      if (!(err instanceof FrameError)) throw err;
      connection.close(err.closeCode, err.message);
      return;
    }
    for (const frame of frames) {
      if (!connection.receive(frame)) return;
    }
  });
  socket.on('error', () => {
    // The close that follows ends the connection.
  });
  return connection;
}
