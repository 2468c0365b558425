#!/usr/bin/env node
// A game server and two players, with the Social SDK for TypeScript (docs/sdk.md): the game's
// backend mints provisional accounts with its bot token, each player's game connects an SDK
// client, and the players become game friends, see each other's rich presence, exchange a DM and
// talk in a lobby they both joined by its secret. Each step waits for what the other player's
// client receives. Run it against a platform started with `npm start` (it reads
// data/demo.json), or set API_URL and BOT_TOKEN; build the SDK first (`npm run build`).
import console from 'node:console';
import process from 'node:process';
import { setTimeout as sleep } from 'node:timers/promises';
import { platformSettings } from './platform.js';

const HELP = `Usage: node examples/sdk-node-game.js [--help]

Environment:
  API_URL     the API base, e.g. http://127.0.0.1:8080/api/v10 (default: data/demo.json's)
  BOT_TOKEN   the game's bot token (default: data/demo.json's)
  DEMO_JSON   where npm start wrote the demo credentials (default: data/demo.json)

The SDK is loaded from packages/sdk/dist/node.js: run \`npm run build\` once first.`;

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

let sdk;
try {
  sdk = await import('../packages/sdk/dist/node.js');
} catch (error) {
  console.error(
    `The SDK is not built (${error.message.split('\n')[0]}): run \`npm run build\` first.`,
  );
  process.exit(2);
}
const {
  Activity,
  ActivityParty,
  ActivityPartyPrivacy,
  AuthorizationTokenType,
  Client,
  ClientStatus,
  RelationshipType,
  statusName,
} = sdk;

const WAIT_MS = 10_000;
const step = (text) => console.log(`• ${text}`);

/** Waits until `check()` gives a value (the SDK's callbacks update what it reads). */
async function until(check, what) {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== null && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await sleep(20);
  }
}

// 1. The game backend (which holds the bot token; players never see it) mints a provisional
//    account for each player and hands the player's game its access token.
const suffix = Date.now().toString(36);
async function mintProvisionalToken(name) {
  const res = await globalThis.fetch(`${api}/partner-sdk/token/bot`, {
    method: 'POST',
    headers: { authorization: `Bot ${bot}`, 'content-type': 'application/json' },
    body: JSON.stringify({ external_user_id: `${name}-${suffix}`, preferred_global_name: name }),
  });
  const body = await res.json();
  if (!res.ok) throw new Error(`minting ${name}: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
const [adaToken, bobToken] = [await mintProvisionalToken('Ada'), await mintProvisionalToken('Bob')];
step('backend minted provisional tokens for Ada and Bob');

// 2. Each player's game: an SDK client, the token, connect, and wait for Ready.
async function player(name, token) {
  const client = new Client({ apiBase: api });
  const failures = [];
  client.setStatusChangedCallback((status, error, detail) => {
    if (status === ClientStatus.Disconnected && error !== 0) {
      failures.push(`${name}'s client disconnected (error ${error}, detail ${detail})`);
    }
  });
  await client.updateToken(AuthorizationTokenType.Bearer, token);
  client.connect();
  await until(() => {
    if (failures.length > 0) throw new Error(failures[0]);
    return client.getStatus() === ClientStatus.Ready;
  }, `${name}'s client to be Ready`);
  return client;
}
const [ada, bob] = [await player('Ada', adaToken), await player('Bob', bobToken)];
const adaId = ada.getCurrentUserV2().id();
const bobId = bob.getCurrentUserV2().id();
step(
  `both clients ${statusName(ada.getStatus())}: ${ada.getCurrentUserV2().displayName()} (${adaId}) and ${bob.getCurrentUserV2().displayName()} (${bobId})`,
);

// 3. Game friends: Ada asks, Bob's client sees the request and accepts, Ada's sees the friend.
const bobSawRequest = new Promise((resolve) => {
  bob.setRelationshipCreatedCallback((userId) => {
    if (userId === adaId) resolve();
  });
});
await ada.sendGameFriendRequestById(bobId);
await bobSawRequest;
await until(
  () =>
    bob.getRelationshipHandle(adaId).gameRelationshipType() === RelationshipType.PendingIncoming,
  "Ada's request in Bob's relationships",
);
step('Ada sent Bob a game friend request; Bob sees it as pending');
await bob.acceptGameFriendRequest(adaId);
await until(
  () => ada.getRelationshipHandle(bobId).gameRelationshipType() === RelationshipType.Friend,
  'Ada to see Bob as a friend',
);
step('Bob accepted: Ada and Bob are game friends');

// 4. Rich presence: Ada plays, in a party; Bob, her friend, sees it on her user handle.
const activity = new Activity();
activity.setName('Tiny Tanks');
activity.setState('In a party');
activity.setDetails('Desert map');
const party = new ActivityParty();
party.setId(`party-${suffix}`);
party.setCurrentSize(1);
party.setMaxSize(4);
party.setPrivacy(ActivityPartyPrivacy.Public);
activity.setParty(party);
await ada.updateRichPresence(activity);
const seen = await until(() => bob.getUser(adaId)?.gameActivity(), "Ada's rich presence");
step(`Bob sees Ada playing ${seen.name()} (${seen.state()})`);

// 5. A direct message: Ada sends, Bob's message-created callback gets it.
const bobGotDm = new Promise((resolve) => {
  bob.setMessageCreatedCallback((messageId) => {
    const message = bob.getMessageHandle(messageId);
    if (message?.authorId() === adaId) resolve(message);
  });
});
const dmId = await ada.sendUserMessage(bobId, 'gg, same time tomorrow?');
const dm = await bobGotDm;
step(`Bob received Ada's DM ${dmId}: "${dm.content()}"`);

// 6. A lobby: Ada creates it from a secret, Bob joins with the same secret and talks in it.
const secret = `match-${suffix}`;
const lobbyId = await ada.createOrJoinLobby(secret);
const bobLobbyId = await bob.createOrJoinLobby(secret);
if (bobLobbyId !== lobbyId) throw new Error(`Bob joined lobby ${bobLobbyId}, not ${lobbyId}`);
await until(
  () => ada.getLobbyHandle(lobbyId)?.lobbyMemberIds().includes(bobId),
  'Bob in the lobby Ada sees',
);
const adaGotLobbyMessage = new Promise((resolve) => {
  ada.setMessageCreatedCallback((messageId) => {
    const message = ada.getMessageHandle(messageId);
    if (message?.lobbyId() === lobbyId) resolve(message);
  });
});
await bob.sendLobbyMessage(lobbyId, 'ready when you are');
const said = await adaGotLobbyMessage;
step(`lobby ${lobbyId}: Bob joined and said "${said.content()}"`);

// 7. Leave and disconnect.
await bob.leaveLobby(lobbyId);
await ada.leaveLobby(lobbyId);
ada.disconnect();
bob.disconnect();
step('done');
