/* global document, location, URLSearchParams */
// The Social SDK in a browser page, without a framework (docs/sdk.md): log in through
// Guildhall's authorize popup (a public client with PKCE), then friends with requests, direct
// messages and a lobby. The SDK is the one-file bundle `npm run build` makes
// (packages/sdk/dist/bundle/guildhall-social-sdk.js), served beside this page as
// `sdk/guildhall-social-sdk.js` (serve.js does that).
import {
  AuthorizationArgs,
  AuthorizationTokenType,
  Client,
  ClientStatus,
  LoggingSeverity,
  RelationshipType,
  statusName,
} from './sdk/guildhall-social-sdk.js';

const $ = (id) => document.getElementById(id);

/** An element with text (never HTML: names and messages come from other people). */
function el(tag, text, attributes = {}) {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** Shows what an operation's rejection (an SdkError) says, in the pane it belongs to. */
function showError(pane, error) {
  $(pane).textContent = error instanceof Error ? error.message : String(error);
}

// The API and the application come from the query string (`?api=…&app=…`) or the form.
const query = new URLSearchParams(location.search);
$('api').value = query.get('api') ?? 'http://127.0.0.1:8080/api/v10';
$('app').value = query.get('app') ?? '';

/** @type {Client | null} */
let client = null;
/** The friend the DM pane talks to. */
let dmWith = null;
/** The lobby the lobby pane shows. */
let lobbyId = null;
/** The messages each log shows, by id (a message arrives by callback and in a history). */
const shown = { 'dm-log': new Set(), 'lobby-log': new Set() };

// ── Logging in ──────────────────────────────────────────────────────────────────────────────

$('login').addEventListener('click', () => {
  $('login-error').textContent = '';
  login().catch((error) => showError('login-error', error));
});

async function login() {
  const apiBase = $('api').value.trim();
  const applicationId = $('app').value.trim();
  client = new Client({ apiBase });
  client.addLogCallback((line) => {
    $('log').textContent += `${line}\n`;
  }, LoggingSeverity.Info);
  client.setStatusChangedCallback(onStatus);
  client.setApplicationId(applicationId);

  // PKCE: the verifier stays here, its challenge goes to the authorize page.
  const verifier = await client.createAuthorizationCodeVerifier();
  const args = new AuthorizationArgs();
  args.setClientId(applicationId);
  args.setScopes(client.getDefaultCommunicationScopes());
  args.setCodeChallenge(verifier.challenge());
  // A popup on Guildhall's authorize page; callback.html hands the code back.
  const { code, redirectUri } = await client.authorize(args);
  const token = await client.getToken(applicationId, code, verifier.verifier(), redirectUri);
  await client.updateToken(AuthorizationTokenType.Bearer, token.accessToken);
  client.connect();
}

function onStatus(status) {
  $('status').textContent = statusName(status);
  if (status !== ClientStatus.Ready) return;
  const me = client.getCurrentUserV2();
  $('me').textContent = me === null ? '' : `as ${me.displayName()} (@${me.username()})`;
  $('login-pane').hidden = true;
  $('social').hidden = false;
  watch();
  renderFriends();
}

/** The SDK's callbacks: each redraws what changed. */
function watch() {
  client.setRelationshipCreatedCallback(renderFriends);
  client.setRelationshipDeletedCallback(renderFriends);
  client.setRelationshipGroupsUpdatedCallback(renderFriends);
  client.setUserUpdatedCallback(renderFriends);
  client.setMessageCreatedCallback(onMessage);
  client.setLobbyMemberAddedCallback(renderLobby);
  client.setLobbyMemberRemovedCallback(renderLobby);
  client.setLobbyUpdatedCallback(renderLobby);
}

// ── Friends ─────────────────────────────────────────────────────────────────────────────────

$('friend-form').addEventListener('submit', (event) => {
  event.preventDefault();
  $('friend-error').textContent = '';
  const username = $('friend-name').value.trim();
  client
    .sendDiscordFriendRequest(username)
    .then(() => {
      $('friend-name').value = '';
    })
    .catch((error) => showError('friend-error', error));
});

function relationshipLabel(type) {
  if (type === RelationshipType.Friend) return 'friend';
  if (type === RelationshipType.PendingIncoming) return 'wants to be your friend';
  if (type === RelationshipType.PendingOutgoing) return 'request sent';
  if (type === RelationshipType.Blocked) return 'blocked';
  return null;
}

function renderFriends() {
  const list = $('friends');
  list.replaceChildren();
  for (const relationship of client.getRelationships()) {
    const userId = relationship.id();
    const name = relationship.user()?.displayName() ?? userId;
    // A friend on either side (platform-wide first) counts.
    const discord = relationship.discordRelationshipType();
    const game = relationship.gameRelationshipType();
    const type = discord !== RelationshipType.None ? discord : game;
    const label = relationshipLabel(type);
    if (label === null) continue;
    const item = el('li', undefined, { 'data-user-id': userId, 'data-relationship': label });
    item.append(el('span', `${name} (${label})`, { class: 'friend-name' }));
    if (type === RelationshipType.PendingIncoming) {
      const accept = el('button', 'Accept', { type: 'button', class: 'accept' });
      accept.addEventListener('click', () => {
        const accepting =
          discord === RelationshipType.PendingIncoming
            ? client.acceptDiscordFriendRequest(userId)
            : client.acceptGameFriendRequest(userId);
        accepting.catch((error) => showError('friend-error', error));
      });
      item.append(accept);
    }
    if (type === RelationshipType.Friend) {
      const talk = el('button', 'Message', { type: 'button', class: 'message' });
      talk.addEventListener('click', () => {
        openDm(userId).catch((error) => showError('dm-error', error));
      });
      item.append(talk);
    }
    list.append(item);
  }
}

// ── Direct messages ─────────────────────────────────────────────────────────────────────────

async function openDm(userId) {
  dmWith = userId;
  $('dm-with').textContent = `with ${client.getUser(userId)?.displayName() ?? userId}`;
  $('dm-log').replaceChildren();
  shown['dm-log'].clear();
  $('dm-text').disabled = false;
  $('dm-send').disabled = false;
  // The history (answered from the SDK's cache when it holds enough).
  const history = await client.getUserMessagesWithLimit(userId, 50);
  for (const message of [...history].sort((a, b) => a.sentTimestamp() - b.sentTimestamp())) {
    showMessage('dm-log', message);
  }
}

$('dm-form').addEventListener('submit', (event) => {
  event.preventDefault();
  $('dm-error').textContent = '';
  const content = $('dm-text').value;
  client
    .sendUserMessage(dmWith, content)
    .then(() => {
      $('dm-text').value = '';
    })
    .catch((error) => showError('dm-error', error));
});

// ── Lobby ───────────────────────────────────────────────────────────────────────────────────

$('lobby-form').addEventListener('submit', (event) => {
  event.preventDefault();
  $('lobby-error').textContent = '';
  joinLobby($('lobby-secret').value.trim()).catch((error) => showError('lobby-error', error));
});

async function joinLobby(secret) {
  lobbyId = await client.createOrJoinLobby(secret);
  $('lobby-id').textContent = lobbyId;
  $('lobby-log').replaceChildren();
  shown['lobby-log'].clear();
  $('lobby-text').disabled = false;
  $('lobby-send').disabled = false;
  renderLobby();
  const history = await client.getLobbyMessagesWithLimit(lobbyId, 50);
  for (const message of [...history].sort((a, b) => a.sentTimestamp() - b.sentTimestamp())) {
    showMessage('lobby-log', message);
  }
}

function renderLobby() {
  if (lobbyId === null) return;
  const lobby = client.getLobbyHandle(lobbyId);
  const list = $('lobby-members');
  list.replaceChildren();
  for (const memberId of lobby?.lobbyMemberIds() ?? []) {
    const name = client.getUser(memberId)?.displayName() ?? memberId;
    list.append(el('li', name, { 'data-user-id': memberId }));
  }
}

$('lobby-message-form').addEventListener('submit', (event) => {
  event.preventDefault();
  $('lobby-error').textContent = '';
  const content = $('lobby-text').value;
  client
    .sendLobbyMessage(lobbyId, content)
    .then(() => {
      $('lobby-text').value = '';
    })
    .catch((error) => showError('lobby-error', error));
});

// ── Messages from the gateway ───────────────────────────────────────────────────────────────

function onMessage(messageId) {
  const message = client.getMessageHandle(messageId);
  if (message === null) return;
  const inLobby = message.lobbyId();
  if (inLobby !== null) {
    if (inLobby === lobbyId) showMessage('lobby-log', message);
    return;
  }
  const me = client.getCurrentUserV2()?.id();
  const other = message.authorId() === me ? message.recipientId() : message.authorId();
  if (dmWith === null) {
    // A first message opens its conversation (with its history, this message among it).
    openDm(other).catch((error) => showError('dm-error', error));
  } else if (other === dmWith) {
    showMessage('dm-log', message);
  }
}

function showMessage(logId, message) {
  if (shown[logId].has(message.id())) return;
  shown[logId].add(message.id());
  const author = client.getUser(message.authorId())?.displayName() ?? message.authorId();
  const item = el('li', undefined, { 'data-message-id': message.id() });
  item.append(el('strong', `${author}: `), el('span', message.content(), { class: 'content' }));
  $(logId).append(item);
}
