/**
 * The voice bench's baseline: a bare UDP fan-out on 127.0.0.1 with the media relay's topology and
 * none of its work. A member is bound to the address its first datagram comes from (found by the
 * RTP ssrc at offset 8); every datagram from a bound member goes, unchanged, to the other bound
 * members of its call. No crypto, no checks beyond that. Its socket skips Node's per-send DNS
 * lookup of the (literal) address, as the relay's does. Reports `{ port, members: [{ call, ssrc,
 * key: null }] }`; on stop writes `{ packetsIn, packetsOut }` and its loop figures (support/loopHealth.js) to standard output. Argument: JSON
 * `{ calls, members }`.
 */
import { createSocket } from 'node:dgram';
import process from 'node:process';
import { serveParent } from './childIpc.js';
import { watchLoopAfterWarmup } from './loopHealth.js';

const { calls, members } = JSON.parse(process.argv[2] ?? '{}');
const socket = createSocket({
  type: 'udp4',
  recvBufferSize: 4 * 1024 * 1024,
  sendBufferSize: 4 * 1024 * 1024,
  lookup: (address, _family, callback) => callback(null, address, 4),
});
await new Promise((resolve) => socket.bind(0, '127.0.0.1', resolve));

const bySsrc = new Map();
const list = [];
for (let call = 0; call < calls; call += 1) {
  const group = [];
  for (let member = 0; member < members; member += 1) {
    const entry = { ssrc: call * members + member + 1, address: null, port: 0, group };
    group.push(entry);
    bySsrc.set(entry.ssrc, entry);
    list.push({ call, ssrc: entry.ssrc, key: null });
  }
}
let packetsIn = 0;
let packetsOut = 0;
socket.on('message', (message, remote) => {
  packetsIn += 1;
  if (message.length < 12) return;
  const sender = bySsrc.get(message.readUInt32BE(8));
  if (sender === undefined) return;
  if (sender.address === null) {
    sender.address = remote.address;
    sender.port = remote.port;
  } else if (sender.address !== remote.address || sender.port !== remote.port) {
    return;
  }
  for (const receiver of sender.group) {
    if (receiver === sender || receiver.address === null) continue;
    socket.send(message, receiver.port, receiver.address);
    packetsOut += 1;
  }
});
const loop = watchLoopAfterWarmup();
serveParent({ port: socket.address().port, members: list }, async () => {
  process.stdout.write(`${JSON.stringify({ packetsIn, packetsOut, ...loop.report() })}\n`);
  await new Promise((resolve) => socket.close(resolve));
});
