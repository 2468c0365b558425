#!/usr/bin/env node
// A game backend and two players going through the social layer: provisional accounts, game
// friends, rich presence, a lobby with messages and moderation, and a direct message, each step
// checked against what the other player's gateway session receives. Run it against a platform
// started with `npm start` (it reads data/demo.json) or set API_URL and BOT_TOKEN. docs/social.md
// walks through the same steps with curl.
import console from 'node:console';
import process from 'node:process';
import { clearInterval, clearTimeout, setInterval, setTimeout } from 'node:timers';
import WebSocket from 'ws';
import { platformSettings } from './platform.js';

const HELP = `Usage: node examples/social-walkthrough.js [--help]

Environment:
  API_URL     the API base, e.g. http://127.0.0.1:8080/api/v10 (default: data/demo.json's)
  BOT_TOKEN   the game's bot token (default: data/demo.json's)
  DEMO_JSON   where npm start wrote the demo credentials (default: data/demo.json)`;

if (process.argv.includes('--help')) {
  console.log(HELP);
  process.exit(0);
}

const { API_URL: api, BOT_TOKEN: bot } = await platformSettings(
  { API_URL: 'api_url', BOT_TOKEN: 'bot_token' },
  {
    help: HELP,
    missing: 'No platform to talk to: start one with `npm start`, or set API_URL and BOT_TOKEN.',
  },
);
const WAIT_MS = 10_000;

/** One HTTP call (`'GET /path'`); a non-2xx answer stops the walkthrough with the error body. */
async function call(route, auth, body) {
  const [method, path] = route.split(' ');
  const res = await globalThis.fetch(`${api}${path}`, {
    method,
    headers: {
      authorization: auth,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return text === '' ? null : JSON.parse(text);
}

/** A player's gateway session: READY, then every dispatch kept for `until`. */
async function connect(token) {
  const { url } = await call('GET /gateway', `Bearer ${token}`);
  const ws = new WebSocket(`${url}?v=10&encoding=json`);
  const dispatches = [];
  const waiters = new Set();
  let heartbeat;
  ws.on('message', (raw) => {
    const frame = JSON.parse(raw.toString());
    if (frame.op === 10) {
      heartbeat = setInterval(
        () => ws.send(JSON.stringify({ op: 1, d: null })),
        frame.d.heartbeat_interval,
      );
      ws.send(
        JSON.stringify({
          op: 2,
          d: {
            token,
            intents: 0,
            properties: { os: 'linux', browser: 'walkthrough', device: 'walkthrough' },
          },
        }),
      );
    }
    if (frame.op !== 0) return;
    dispatches.push(frame);
    for (const waiter of waiters) waiter(frame);
  });
  const closed = new Promise((resolve) => ws.on('close', (code) => resolve(code)));
  /** The first dispatch (from the start) of `type` that `match` accepts. */
  const until = (type, match = () => true) =>
    new Promise((resolve, reject) => {
      const seen = dispatches.find((f) => f.t === type && match(f.d));
      if (seen) return resolve(seen.d);
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no ${type} within ${WAIT_MS} ms`));
      }, WAIT_MS);
      const check = (f) => {
        if (f.t !== type || !match(f.d)) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve(f.d);
      };
      waiters.add(check);
      closed.then((code) =>
        reject(new Error(`gateway closed (${code}) while waiting for ${type}`)),
      );
    });
  const ready = await until('READY');
  return {
    ready,
    until,
    presence: (d) => ws.send(JSON.stringify({ op: 3, d })),
    close: () => {
      clearInterval(heartbeat);
      ws.close(1000);
    },
  };
}

const step = (text) => console.log(`• ${text}`);

// 1. The game backend mints provisional accounts for two players who have no platform account.
const BOT = `Bot ${bot}`;
const suffix = Date.now().toString(36);
const mint = (name) =>
  call('POST /partner-sdk/token/bot', BOT, {
    external_user_id: `${name}-${suffix}`,
    preferred_global_name: name,
  });
const [adaToken, bobToken] = [(await mint('Ada')).access_token, (await mint('Bob')).access_token];
const ADA = `Bearer ${adaToken}`;
const BOB = `Bearer ${bobToken}`;
const [ada, bob] = [await call('GET /users/@me', ADA), await call('GET /users/@me', BOB)];
step(
  `backend minted provisional accounts ${ada.global_name} (${ada.id}) and ${bob.global_name} (${bob.id})`,
);

// 2. Both players' games connect to the gateway with their tokens.
const [adaGw, bobGw] = [await connect(adaToken), await connect(bobToken)];
step(
  `both sessions READY (${adaGw.ready.relationships.length} relationships, ${adaGw.ready.lobbies.length} lobbies)`,
);

// 3. Game friends: Ada asks, Bob sees the request and accepts, Ada sees the friendship.
await call(`PUT /users/@me/game-relationships/${bob.id}`, ADA, {});
await bobGw.until('RELATIONSHIP_ADD', (d) => d.id === ada.id && d.type === 3);
await call(`PUT /users/@me/game-relationships/${ada.id}`, BOB, { type: 1 });
await adaGw.until('RELATIONSHIP_ADD', (d) => d.id === bob.id && d.type === 1);
step('Ada and Bob are game friends');

// 4. Rich presence: Ada plays, with a party; Bob, her friend, sees it.
const party = `party-${suffix}`;
adaGw.presence({
  status: 'online',
  since: null,
  afk: false,
  activities: [
    {
      name: 'Tiny Tanks',
      type: 0,
      state: 'In a party',
      details: 'Desert map',
      party: { id: party, size: [1, 4] },
    },
  ],
});
const seen = await bobGw.until(
  'PRESENCE_UPDATE',
  (d) => d.user.id === ada.id && d.activities.length > 0,
);
step(`Bob sees Ada playing ${seen.activities[0].name} (${seen.activities[0].state})`);

// 5. A lobby: Ada makes it from a secret, Bob joins with the same secret, Bob talks in it.
const secret = `match-${suffix}`;
const lobby = await call('PUT /lobbies', ADA, { secret, lobby_metadata: { map: 'desert' } });
await call('PUT /lobbies', BOB, { secret });
await adaGw.until('LOBBY_MEMBER_ADD', (d) => d.lobby_id === lobby.id && d.member.id === bob.id);
const said = await call(`POST /lobbies/${lobby.id}/messages`, BOB, {
  content: 'ready when you are',
});
await adaGw.until('LOBBY_MESSAGE_CREATE', (d) => d.id === said.id);
step(`lobby ${lobby.id}: Bob joined and said "${said.content}"`);

// 6. The backend moderates the lobby message (the players' sessions get no event for it).
await call(`PUT /lobbies/${lobby.id}/messages/${said.id}/moderation-metadata`, BOT, {
  action: 'show',
  reason: 'checked',
});
step('backend stored its moderation verdict on the message');

// 7. A direct message between the two game friends.
const dm = await call(`POST /users/${bob.id}/messages`, ADA, {
  content: 'gg, same time tomorrow?',
});
await bobGw.until('MESSAGE_CREATE', (d) => d.id === dm.id && d.guild_id === undefined);
const history = await call(`GET /users/${ada.id}/messages?limit=10`, BOB);
step(`Bob received Ada's DM; their conversation has ${history.length} message(s)`);

// 8. Leave and clean up.
await call(`DELETE /lobbies/${lobby.id}/members/@me`, BOB);
await call(`DELETE /lobbies/${lobby.id}`, BOT);
adaGw.close();
bobGw.close();
step('done');
