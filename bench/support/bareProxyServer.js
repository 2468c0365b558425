/**
 * Child process of bench/activityProxy.js: the least a reverse proxy does, as a baseline for
 * Guildhall's activity proxy host. A bare `node:http` server (no framework, no log) that
 * forwards every request to the target given as the first argument (`host:port`) over pooled
 * keep-alive connections (the same Agent settings as activities/proxyUpstream.ts), the Host
 * header set to the target's, and streams the answer back: status, headers and body as they
 * came. Talks to the parent through childIpc.js.
 */
import console from 'node:console';
import http from 'node:http';
import process from 'node:process';
import { serveParent } from './childIpc.js';

const targetHost = process.argv[2];
if (targetHost === undefined || process.send === undefined) {
  console.error('bareProxyServer.js is started by bench/activityProxy.js (a host:port and IPC)');
  process.exit(2);
}
const [hostname, portText] = targetHost.split(':');
const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });

const server = http.createServer((req, res) => {
  const upstream = http.request({
    host: hostname,
    port: Number(portText),
    method: req.method,
    path: req.url,
    headers: { ...req.headers, host: targetHost },
    agent,
  });
  upstream.on('response', (answer) => {
    res.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(res);
  });
  res.on('close', () => {
    if (!res.writableFinished) upstream.destroy();
  });
  upstream.on('error', () => {
    if (res.headersSent) res.destroy();
    else res.writeHead(502).end();
  });
  req.pipe(upstream);
});

server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  serveParent({ proxyUrl: `http://127.0.0.1:${port}` }, async () => {
    agent.destroy();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
});
