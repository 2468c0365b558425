/**
 * The media relay of voice calls (docs/voice.md, packages/server/src/voice/relay): N calls of M
 * members, each member a UDP client on 127.0.0.1 sending a 20 ms Opus-sized DAVE-shaped frame
 * every 20 ms, through Guildhall's relay (transport encryption both ways, re-sealed per receiver)
 * and, as the baseline in the same run, through a bare UDP fan-out with the same topology and no
 * crypto. The relay and the fan-out each run in their own child process
 * (support/voiceRelayServer.js, support/udpFanoutServer.js) so their CPU time is theirs alone;
 * the clients run here, and latency is send → receive on this process's clock. See
 * docs/benchmarks.md.
 */
import { Buffer } from 'node:buffer';
import console from 'node:console';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { once } from 'node:events';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import process from 'node:process';
import { clearInterval, setInterval, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseArgs } from 'node:util';
import { TransportCipher, discoveryRequest } from '../packages/server/dist/voice/relay/index.js';
import { startServer } from './support/childServer.js';
import { percentile } from './support/stats.js';
import { integerReader, readOptions } from './support/options.js';

const USAGE = `Usage: node bench/voice.js [options]   (npm run bench:voice builds first)

N calls of M members; every member is a UDP client here sending one RTP packet every 20 ms: a
DAVE-shaped frame (--frame-bytes of opaque bytes ending in the DAVE trailer, as a 20 ms Opus frame
end-to-end encrypted would be), transport-encrypted with the member's key. Rows, one after the
other in the same run:
  bare fan-out        a UDP server forwarding each datagram unchanged to the rest of the call
  relay aes-256-gcm   Guildhall's media relay, every member on aead_aes256_gcm_rtpsize
  relay xchacha20     the same on aead_xchacha20_poly1305_rtpsize
Columns: packets forwarded per second (received by the members), loss, send → receive latency
p50/p99/max (this process's clock), the server child's CPU time per forwarded packet and its share
of one core, and the relay's p99 above the bare fan-out's.

BENCH_PROFILE=<dir> writes the relay children's CPU profiles there (--cpu-prof).

Options:
  --calls <n>        calls (default 10)
  --members <n>      members per call (default 10)
  --seconds <s>      seconds measured per row (default 10)
  --warmup <s>       seconds of traffic before each row's measurement (default 2)
  --frame-bytes <n>  bytes of each DAVE frame (default 160: Opus at 64 kb/s)
  --json             print the results as JSON instead of a table
  --help             print this help

Exit status: 0 when every checked packet opened to what its sender sent, 1 otherwise.`;

const FRAME_MS = 20;
const SAMPLES_PER_FRAME = 960;
/** Send times kept per member, by sequence number: 1024 frames are 20 s. */
const SEND_RING = 1024;
/** One received packet in this many is opened and compared with what was sent. */
const VERIFY_EVERY = 50;
/** The DAVE trailer's supplemental size: 8-byte tag, 2-byte nonce, size, marker. */
const DAVE_SUPPLEMENTAL_BYTES = 13;

function parseOptions(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      calls: { type: 'string', default: '10' },
      members: { type: 'string', default: '10' },
      seconds: { type: 'string', default: '10' },
      warmup: { type: 'string', default: '2' },
      'frame-bytes': { type: 'string', default: '160' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const integer = integerReader(values);
  return {
    help: values.help,
    json: values.json,
    calls: integer('calls', [1, 1000]),
    members: integer('members', [2, 99]),
    seconds: integer('seconds', [1, 3600]),
    warmupSeconds: integer('warmup', [0, 600]),
    frameBytes: integer('frame-bytes', [16, 1200]),
  };
}

/** A frame as DAVE leaves it: opaque bytes, the supplemental data, its size, 0xFAFA. */
function daveFrame(bytes) {
  const frame = randomBytes(bytes);
  frame[bytes - 3] = DAVE_SUPPLEMENTAL_BYTES;
  frame[bytes - 2] = 0xfa;
  frame[bytes - 1] = 0xfa;
  return frame;
}

async function openClient(server, entry, { mode, index, frameBytes }) {
  const socket = createSocket({ type: 'udp4', recvBufferSize: 1024 * 1024 });
  socket.bind(0, '127.0.0.1');
  await once(socket, 'listening');
  // Bare fan-out: the client still seals (the same work as against the relay) with a key of its own.
  const key = entry.key === null ? randomBytes(32) : Buffer.from(entry.key, 'hex');
  const header = Buffer.alloc(12);
  header[0] = 0x80;
  header[1] = 0x78;
  header.writeUInt32BE(entry.ssrc, 8);
  return {
    index,
    call: entry.call,
    ssrc: entry.ssrc,
    socket,
    cipher: new TransportCipher(mode, key),
    header,
    frame: daveFrame(frameBytes),
    sequence: 0,
    timestamp: 0,
    counter: 0,
    sendTimes: new Float64Array(SEND_RING),
    timers: [],
    port: server.port,
  };
}

function discover(client) {
  return new Promise((resolve) => {
    const onMessage = (message) => {
      if (message.length === 74 && message.readUInt16BE(0) === 2) {
        client.socket.off('message', onMessage);
        resolve();
      }
    };
    client.socket.on('message', onMessage);
    client.socket.send(discoveryRequest(client.ssrc), client.port, '127.0.0.1');
  });
}

function sendFrame(client, counters) {
  client.sequence = (client.sequence + 1) & 0xffff;
  client.timestamp = (client.timestamp + SAMPLES_PER_FRAME) >>> 0;
  client.header.writeUInt16BE(client.sequence, 2);
  client.header.writeUInt32BE(client.timestamp, 4);
  client.frame.writeUInt16BE(client.sequence, 0);
  client.counter += 1;
  const now = performance.now();
  client.sendTimes[client.sequence % SEND_RING] = now;
  if (now >= counters.windowStart && now < counters.windowEnd) counters.sentInWindow += 1;
  client.socket.send(
    client.cipher.seal(client.header, client.frame, client.counter),
    client.port,
    '127.0.0.1',
  );
}

async function runRow(row, options, logFile) {
  const server = await startServer(
    row.bare ? 'udpFanoutServer.js' : 'voiceRelayServer.js',
    [JSON.stringify({ calls: options.calls, members: options.members, mode: row.mode })],
    {
      logFile,
      execArgv:
        process.env.BENCH_PROFILE && !row.bare
          ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE}`]
          : [],
    },
  );
  const clients = [];
  try {
    for (const [index, entry] of server.members.entries()) {
      clients.push(
        await openClient(server, entry, { mode: row.mode, index, frameBytes: options.frameBytes }),
      );
    }
    if (!row.bare) await Promise.all(clients.map(discover));
    const bySsrc = new Map(clients.map((c) => [c.ssrc, c]));
    const expectedPerFrame = options.members - 1;
    const capacity = Math.ceil(
      clients.length * expectedPerFrame * ((options.seconds * 1000) / FRAME_MS) * 1.2 + 1000,
    );
    const counters = {
      windowStart: Infinity,
      windowEnd: Infinity,
      sentInWindow: 0,
      received: 0,
      latencies: new Float64Array(capacity),
      checked: 0,
      mismatched: 0,
      seen: 0,
    };
    for (const client of clients) {
      client.socket.on('message', (message) => {
        const now = performance.now();
        if (message.length < 12 || message[1] !== 0x78) return;
        const sender = bySsrc.get(message.readUInt32BE(8));
        if (sender === undefined || sender.call !== client.call) {
          counters.mismatched += 1;
          return;
        }
        const sequence = message.readUInt16BE(2);
        const sentAt = sender.sendTimes[sequence % SEND_RING];
        if (sentAt >= counters.windowStart && sentAt < counters.windowEnd) {
          if (counters.received < capacity) counters.latencies[counters.received] = now - sentAt;
          counters.received += 1;
        }
        counters.seen += 1;
        if (counters.seen % VERIFY_EVERY === 0) {
          // Through the relay the packet is sealed for this member; the bare fan-out passes the
          // sender's own packet.
          const opener = row.bare ? sender.cipher : client.cipher;
          const opened = opener.open(message, 12);
          counters.checked += 1;
          if (
            opened === null ||
            opened.length !== sender.frame.length ||
            ((opened[0] << 8) | opened[1]) !== sequence ||
            !Buffer.from(opened.buffer, opened.byteOffset + 2, opened.length - 2).equals(
              sender.frame.subarray(2),
            )
          )
            counters.mismatched += 1;
        }
      });
    }
    // Members start spread over one frame interval, as real speakers are.
    for (const client of clients) {
      const offsetMs = (client.index * FRAME_MS) / clients.length;
      client.timers.push(
        setTimeout(() => {
          sendFrame(client, counters);
          client.timers.push(setInterval(() => sendFrame(client, counters), FRAME_MS));
        }, offsetMs),
      );
    }
    await sleep(options.warmupSeconds * 1000 + FRAME_MS);
    const cpuBefore = await server.cpuMicros();
    const clientCpuBefore = process.cpuUsage();
    counters.windowStart = performance.now();
    counters.windowEnd = counters.windowStart + options.seconds * 1000;
    await sleep(options.seconds * 1000);
    const cpuAfter = await server.cpuMicros();
    const clientCpu = process.cpuUsage(clientCpuBefore);
    for (const client of clients) for (const timer of client.timers) clearInterval(timer);
    // Stragglers of the window's last frames.
    await sleep(300);
    const latencies = counters.latencies.subarray(0, Math.min(counters.received, capacity)).sort();
    const expected = counters.sentInWindow * expectedPerFrame;
    const serverCpuMicros = cpuAfter - cpuBefore;
    return {
      name: row.name,
      members: clients.length,
      packetsPerSecond: counters.received / options.seconds,
      lossPercent: expected === 0 ? 0 : (100 * (expected - counters.received)) / expected,
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      maxMs: latencies.length === 0 ? NaN : latencies[latencies.length - 1],
      serverCpuMicrosPerPacket: serverCpuMicros / Math.max(counters.received, 1),
      serverCorePercent: (100 * serverCpuMicros) / (options.seconds * 1e6),
      clientCorePercent: (100 * (clientCpu.user + clientCpu.system)) / (options.seconds * 1e6),
      checked: counters.checked,
      mismatched: counters.mismatched,
      serverStats: null,
    };
  } finally {
    for (const client of clients) {
      for (const timer of client.timers) clearInterval(timer);
      client.socket.close();
    }
    await server.stop();
  }
}

/** One row, then the server's own counters (the line it writes on stop). */
async function measureRow(row, options) {
  const dir = await mkdtemp(join(os.tmpdir(), 'guildhall-bench-voice-'));
  try {
    const logFile = join(dir, 'server.out');
    const result = await runRow(row, options, logFile);
    const last = (await readFile(logFile, 'utf8')).trim().split('\n').at(-1);
    return { ...result, serverStats: last ? JSON.parse(last) : null };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function run(options) {
  const rows = [
    { name: 'bare fan-out', bare: true, mode: 'aead_aes256_gcm_rtpsize' },
    { name: 'relay aes-256-gcm', bare: false, mode: 'aead_aes256_gcm_rtpsize' },
    { name: 'relay xchacha20', bare: false, mode: 'aead_xchacha20_poly1305_rtpsize' },
  ];
  const results = [];
  const loadBefore = os.loadavg()[0];
  for (const row of rows) {
    if (!options.json) process.stderr.write(`${row.name}…\n`);
    const result = await measureRow(row, options);
    results.push(result);
  }
  const machine = `${os.cpus()[0]?.model ?? 'cpu'}, ${os.cpus().length} CPUs, ${os.platform()} ${os.release()}, Node ${process.version}`;
  // Other work on the machine shows in the tail latencies: the 1-minute load average says how much.
  const load = { before: loadBefore, after: os.loadavg()[0] };
  return { machine, load, options: { ...options, help: undefined, json: undefined }, results };
}

const fmt = (value, digits = 2) =>
  Number.isFinite(value)
    ? value.toLocaleString('en-US', {
        minimumFractionDigits: digits,
        maximumFractionDigits: digits,
      })
    : '–';

function printTable(result) {
  const { options } = result;
  const bare = result.results[0];
  console.log(`Machine: ${result.machine}`);
  console.log(
    `Load average (1 min) before and after: ${fmt(result.load.before)}, ${fmt(result.load.after)}`,
  );
  console.log(
    `Command: node bench/voice.js --calls ${options.calls} --members ${options.members} --seconds ${options.seconds}` +
      ` --warmup ${options.warmupSeconds} --frame-bytes ${options.frameBytes}`,
  );
  console.log(
    `${options.calls} calls × ${options.members} members, one ${options.frameBytes}-byte frame per member every ${FRAME_MS} ms, ${options.seconds} s per row\n`,
  );
  console.log(
    '| path | members | packets/s forwarded | loss % | p50 ms | p99 ms | max ms | server CPU µs/packet | server core % | client core % | p99 over bare ms |',
  );
  console.log(
    '| ---- | ------: | ------------------: | -----: | -----: | -----: | -----: | -------------------: | ------------: | ------------: | ---------------: |',
  );
  for (const row of result.results) {
    console.log(
      `| ${row.name} | ${row.members} | ${fmt(row.packetsPerSecond, 0)} | ${fmt(row.lossPercent)} | ` +
        `${fmt(row.p50Ms)} | ${fmt(row.p99Ms)} | ${fmt(row.maxMs)} | ${fmt(row.serverCpuMicrosPerPacket)} | ` +
        `${fmt(row.serverCorePercent, 1)} | ${fmt(row.clientCorePercent, 1)} | ` +
        `${row === bare ? '' : fmt(row.p99Ms - bare.p99Ms)} |`,
    );
  }
  console.log('');
  console.log('| path | server loop delay p99 ms | max ms | GC pauses | GC total ms | GC max ms |');
  console.log('| ---- | -----------------------: | -----: | --------: | ----------: | --------: |');
  for (const { name, serverStats: s } of result.results) {
    console.log(
      `| ${name} | ${fmt(s?.loopDelayP99Ms)} | ${fmt(s?.loopDelayMaxMs)} | ${s?.gcPauses ?? '–'} | ` +
        `${fmt(s?.gcTotalMs, 1)} | ${fmt(s?.gcMaxMs)} |`,
    );
  }
  console.log('');
  for (const row of result.results) {
    console.log(
      `${row.name}: ${row.checked} packets opened and compared, ${row.mismatched} wrong; server: ${JSON.stringify(row.serverStats)}`,
    );
  }
}

async function main() {
  const { options, exitCode } = readOptions(parseOptions, USAGE);
  if (options === null) return exitCode;
  const result = await run(options);
  if (options.json) console.log(JSON.stringify(result, null, 2));
  else printTable(result);
  return result.results.every((row) => row.mismatched === 0 && row.checked > 0) ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
