/**
 * Two people in a DM call, each a main gateway session (a WebSocket with the person's own session
 * token, as the web client has) and an @discordjs/voice 0.19 connection (DAVE through
 * @snazzah/davey), unchanged, joined through an adapter as a DM-capable client writes it: op 4
 * with `guild_id: null`, the voice state and voice server handed over, the voice server's
 * `channel_id` standing for the guild a DM has not. The caller joins (the call rings the callee),
 * the callee sees the ring and accepts by joining; the caller plays a tone, the callee decodes it
 * and measures its frequency. In a process of its own: Node trusts the voice node's development
 * certificate only through NODE_EXTRA_CA_CERTS.
 *
 * Arguments: gatewayUrl callerToken calleeToken channelId frequencyHz
 * Output: one JSON line on stdout.
 *
 * @module
 */
import {
  VoiceConnectionStatus,
  entersState,
  joinVoiceChannel,
  type DiscordGatewayAdapterLibraryMethods,
  type VoiceConnection,
} from '@discordjs/voice';
import WebSocket from 'ws';
import { playAndHear } from './tone.js';

const [gatewayUrl, callerToken, calleeToken, channelId, frequencyArg] = process.argv.slice(2);
if (
  gatewayUrl === undefined ||
  callerToken === undefined ||
  calleeToken === undefined ||
  channelId === undefined ||
  frequencyArg === undefined
) {
  throw new Error('usage: dmCallClients gatewayUrl callerToken calleeToken channelId hz');
}
const frequency = Number(frequencyArg);

interface Dispatch {
  op: number;
  t: string | null;
  d: Record<string, unknown>;
}

/** A person's main gateway session: identified, heartbeating, its dispatches to listeners. */
async function gatewaySession(token: string) {
  const ws = new WebSocket(`${gatewayUrl}?v=10&encoding=json`);
  const listeners = new Set<(frame: Dispatch) => void>();
  let seq: number | null = null;
  let beat: NodeJS.Timeout | undefined;
  const ready = new Promise<string>((resolve, reject) => {
    ws.once('error', reject);
    ws.on('message', (data: Buffer) => {
      const frame = JSON.parse(data.toString('utf8')) as Dispatch & { s: number | null };
      if (frame.s !== null) seq = frame.s;
      if (frame.op === 10) {
        const interval = frame.d['heartbeat_interval'] as number;
        beat = setInterval(() => {
          ws.send(JSON.stringify({ op: 1, d: seq }));
        }, interval);
        ws.send(JSON.stringify({ op: 2, d: { token, intents: 1 << 12, properties: {} } }));
      }
      if (frame.t === 'READY') resolve((frame.d['user'] as { id: string }).id);
      for (const listener of listeners) listener(frame);
    });
  });
  const userId = await ready;
  const next = (match: (frame: Dispatch) => boolean) =>
    new Promise<Dispatch>((resolve) => {
      const listener = (frame: Dispatch) => {
        if (!match(frame)) return;
        listeners.delete(listener);
        resolve(frame);
      };
      listeners.add(listener);
    });
  /** An @discordjs/voice adapter over this session, for the private channel's call. */
  const adapterCreator = (methods: DiscordGatewayAdapterLibraryMethods) => {
    const relay = (frame: Dispatch) => {
      if (frame.t === 'VOICE_STATE_UPDATE' && frame.d['user_id'] === userId) {
        methods.onVoiceStateUpdate(frame.d as never);
      } else if (frame.t === 'VOICE_SERVER_UPDATE') {
        // A DM has no guild: its call's voice server is named by the channel.
        methods.onVoiceServerUpdate({ ...frame.d, guild_id: frame.d['channel_id'] } as never);
      }
    };
    listeners.add(relay);
    return {
      sendPayload: (payload: { d: Record<string, unknown> }) => {
        ws.send(JSON.stringify({ op: 4, d: { ...payload.d, guild_id: null } }));
        return true;
      },
      destroy: () => {
        listeners.delete(relay);
      },
    };
  };
  const close = () => {
    clearInterval(beat);
    ws.close(1000);
  };
  return { userId, next, adapterCreator, close };
}

type Session = Awaited<ReturnType<typeof gatewaySession>>;

function join(session: Session, group: string): VoiceConnection {
  return joinVoiceChannel({
    channelId: channelId ?? '',
    guildId: channelId ?? '',
    adapterCreator: session.adapterCreator,
    group,
    selfDeaf: false,
    selfMute: false,
    daveEncryption: true,
  });
}

async function call(): Promise<void> {
  const caller = await gatewaySession(callerToken ?? '');
  const callee = await gatewaySession(calleeToken ?? '');
  const rung = callee.next((f) => f.t === 'CALL_CREATE');
  const said = join(caller, 'caller');
  await entersState(said, VoiceConnectionStatus.Ready, 20_000);
  const ringing = (await rung).d['ringing'] as string[];
  // Accepting is joining; the caller's DAVE session moves to the epoch with both.
  const transitioned = new Promise<void>((resolve) => {
    said.once('transitioned', () => {
      resolve();
    });
  });
  const heard = join(callee, 'callee');
  await entersState(heard, VoiceConnectionStatus.Ready, 20_000);
  await transitioned;
  const { frames, undecodable, hz, seconds } = await playAndHear(said, heard, {
    userId: caller.userId,
    frequency,
  });
  // Both hang up: the call ends for the caller's session.
  const deleted = caller.next((f) => f.t === 'CALL_DELETE');
  heard.destroy();
  said.destroy();
  const callDeleted = (await deleted).d['channel_id'] === channelId;
  caller.close();
  callee.close();
  process.stdout.write(
    `${JSON.stringify({ ringing, calleeId: callee.userId, frames, undecodable, hz, seconds, callDeleted })}\n`,
  );
}

const timeout = setTimeout(() => {
  process.stderr.write('dmCallClients: timed out\n');
  process.exit(2);
}, 60_000);
call().then(
  () => {
    clearTimeout(timeout);
    process.exit(0);
  },
  (err: unknown) => {
    process.stderr.write(
      `dmCallClients: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
