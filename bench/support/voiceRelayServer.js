/**
 * A benchmark child running Guildhall's media relay (packages/server/dist/voice/relay) on
 * 127.0.0.1, with `calls` × `members` members added and a protocol selected for each, as the
 * voice gateway does at Ready and Select Protocol. Reports `{ port, members: [{ call, ssrc, key }] }`
 * (key in hex: the bench's clients are the members); on stop writes the relay's stats() as one
 * JSON line to standard output, with its event loop delay and GC pauses (support/loopHealth.js). Argument: JSON `{ calls, members, mode }`.
 */
import { Buffer } from 'node:buffer';
import process from 'node:process';
import { pino } from 'pino';
import { systemClock } from '../../packages/server/dist/domain/clock.js';
import { MediaRelay } from '../../packages/server/dist/voice/relay/index.js';
import { serveParent } from './childIpc.js';
import { watchLoopAfterWarmup } from './loopHealth.js';

const { calls, members, mode } = JSON.parse(process.argv[2] ?? '{}');
const relay = await MediaRelay.listen({
  host: '127.0.0.1',
  port: 0,
  publicIp: '127.0.0.1',
  maxPacketBytes: 1400,
  logger: pino({ level: 'warn' }, pino.destination(2)),
  clock: systemClock,
  maxMembersPerCall: members,
});
const list = [];
for (let call = 0; call < calls; call += 1) {
  for (let member = 0; member < members; member += 1) {
    const { ssrc } = relay.addMember(`call-${call}`, `user-${call}-${member}`);
    const { secretKey } = relay.selectProtocol(ssrc, mode);
    list.push({ call, ssrc, key: Buffer.from(secretKey).toString('hex') });
  }
}
const loop = watchLoopAfterWarmup();
serveParent({ port: relay.port, members: list }, async () => {
  process.stdout.write(`${JSON.stringify({ ...relay.stats(), ...loop.report() })}\n`);
  await relay.close();
});
