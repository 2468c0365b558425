/**
 * @module rpc/wsTransport: the local WebSocket transport (docs/rpc.md, WebSocket), beside the
 * IPC socket: `ws://127.0.0.1:{6463–6472}/?v=1&client_id=…&encoding=json` on the first free port
 * of the range. The query is the HANDSHAKE; each text message is a command, each answer and
 * event one text message; a close is the WebSocket's close code and reason. The platform's
 * origin rule: a connection that sends an `Origin` must come from one of the application's RPC
 * origins; Guildhall keeps none (`rpc_origins` is always empty), so only native clients, which
 * send no `Origin`, are served, and a browser page is closed with 4001.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import { createServer } from 'node:http';
import { IpcOpcodes, RpcCloseCodes } from '@guildhall/protocol';
import { WebSocketServer, type WebSocket } from 'ws';
import { RpcConnection, type ConnectionDeps } from './connection.js';

/** The ports the platform's client tries, in order. */
export const RPC_WS_PORTS: readonly number[] = Array.from({ length: 10 }, (_, i) => 6463 + i);

/** The close a refused upgrade gets once open (the WebSocket way to say why). */
function refuse(ws: WebSocket, code: number, message: string): void {
  ws.close(code, message);
}

/** Opens one connection on an accepted WebSocket; null when it was refused. */
export function wsConnection(
  ws: WebSocket,
  request: IncomingMessage,
  deps: ConnectionDeps,
): RpcConnection | null {
  const url = new URL(request.url ?? '/', 'ws://127.0.0.1');
  if (request.headers.origin !== undefined) {
    refuse(ws, RpcCloseCodes.INVALID_ORIGIN, 'Invalid Origin');
    return null;
  }
  const encoding = url.searchParams.get('encoding') ?? 'json';
  if (encoding !== 'json') {
    refuse(ws, RpcCloseCodes.INVALID_ENCODING, `Encoding ${encoding} is not served: use json.`);
    return null;
  }
  const connection = new RpcConnection(
    {
      send: (op, payload) => {
        if (op === IpcOpcodes.FRAME && ws.readyState === ws.OPEN) ws.send(JSON.stringify(payload));
      },
      close: (code, message) => {
        // 1006 is never sent on a WebSocket (it means no close frame): 1011, the server failed.
        ws.close(code === RpcCloseCodes.CLOSE_ABNORMAL ? 1011 : code, message.slice(0, 120));
      },
    },
    deps,
  );
  ws.on('message', (data, isBinary) => {
    let payload: unknown;
    try {
      if (isBinary) throw new TypeError('binary');
      const text = Buffer.isBuffer(data)
        ? data
        : Buffer.concat(Array.isArray(data) ? data : [Buffer.from(data)]);
      payload = JSON.parse(text.toString('utf8'));
    } catch {
      connection.close(RpcCloseCodes.INVALID_ENCODING, 'Messages must be JSON text.');
      return;
    }
    connection.receive({ op: IpcOpcodes.FRAME, payload });
  });
  ws.on('error', () => {
    // The close that follows ends the connection.
  });
  connection.receive({
    op: IpcOpcodes.HANDSHAKE,
    payload: { v: url.searchParams.get('v'), client_id: url.searchParams.get('client_id') },
  });
  return connection;
}

export interface RpcWebSocketServer {
  readonly port: number;
  close(): Promise<void>;
}

/** Listens on the first free port of `ports` on 127.0.0.1; null when every one is taken. */
export async function listenWebSocket(
  ports: readonly number[],
  options: { maxPayload: number; onConnection: (ws: WebSocket, request: IncomingMessage) => void },
): Promise<RpcWebSocketServer | null> {
  for (const port of ports) {
    const http: HttpServer = createServer((_request, response) => {
      response.writeHead(404).end();
    });
    const listening = await new Promise<boolean>((resolve) => {
      http.once('error', () => {
        resolve(false);
      });
      http.listen(port, '127.0.0.1', () => {
        resolve(true);
      });
    });
    if (!listening) continue;
    const wss = new WebSocketServer({ server: http, maxPayload: options.maxPayload });
    wss.on('connection', options.onConnection);
    return {
      port,
      close: () =>
        new Promise<void>((resolve) => {
          for (const client of wss.clients) client.terminate();
          wss.close(() => {
            http.close(() => {
              resolve();
            });
          });
        }),
    };
  }
  return null;
}
