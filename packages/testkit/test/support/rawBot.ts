/**
 * A bare bot for the kit's own tests: a gateway session (GUILDS) that records its dispatches, and
 * the interaction callback route. The examples use real client libraries; this one keeps the
 * kit's tests independent of them.
 *
 * @module
 */
import WebSocket from 'ws';
import { EventLog } from '../../src/eventLog.js';
import { describeDispatch, type Dispatch } from '../../src/session.js';

export interface RawBot {
  dispatches: EventLog<Dispatch>;
  /** The next INTERACTION_CREATE (of `type` when given) not yet taken. */
  interaction(type?: number): Promise<ReceivedInteraction>;
  /** POST /interactions/{id}/{token}/callback. */
  respond(interaction: ReceivedInteraction, body: unknown): Promise<Response>;
  /** A request with the bot token: `'POST /channels/1/messages'`. */
  request(route: string, body?: unknown): Promise<Response>;
  close(): void;
}

export interface ReceivedInteraction {
  id: string;
  token: string;
  type: number;
  application_id: string;
  data: Record<string, unknown>;
  message?: { id: string };
}

export async function connectRawBot(urls: { apiUrl: string; gatewayUrl: string }, token: string) {
  const ws = new WebSocket(`${urls.gatewayUrl}?v=10&encoding=json`);
  const dispatches = new EventLog<Dispatch>(describeDispatch);
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  ws.on('message', (data: Buffer) => {
    const frame = JSON.parse(data.toString('utf8')) as {
      op: number;
      d: unknown;
      t: string;
      s: number;
    };
    if (frame.op === 10) {
      const interval = (frame.d as { heartbeat_interval: number }).heartbeat_interval;
      heartbeat = setInterval(() => {
        ws.send(JSON.stringify({ op: 1, d: null }));
      }, interval);
      ws.send(
        JSON.stringify({
          op: 2,
          d: {
            token: `Bot ${token}`,
            intents: 1,
            properties: { os: 'linux', browser: 'raw', device: 'raw' },
          },
        }),
      );
    } else if (frame.op === 0) dispatches.push({ t: frame.t, d: frame.d, s: frame.s });
  });
  await dispatches.waitFor('READY', (d) => d.t === 'READY', { timeoutMs: 10_000 });
  const taken = new Set<string>();
  const api = `${urls.apiUrl}/v10`;
  const bot: RawBot = {
    dispatches,
    async interaction(type) {
      const found = await dispatches.waitFor(
        `INTERACTION_CREATE${type === undefined ? '' : ` type ${String(type)}`}`,
        (d) => {
          if (d.t !== 'INTERACTION_CREATE') return false;
          const i = d.d as ReceivedInteraction;
          return !taken.has(i.id) && (type === undefined || i.type === type);
        },
      );
      const interaction = found.d as ReceivedInteraction;
      taken.add(interaction.id);
      return interaction;
    },
    respond: (interaction, body) =>
      fetch(`${api}/interactions/${interaction.id}/${interaction.token}/callback`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      }),
    request(route, body) {
      const [method = 'GET', path = '/'] = route.split(' ');
      return fetch(`${api}${path}`, {
        method,
        headers: { Authorization: `Bot ${token}`, 'Content-Type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    },
    close() {
      if (heartbeat !== null) clearInterval(heartbeat);
      ws.close(1000);
    },
  };
  return bot;
}
