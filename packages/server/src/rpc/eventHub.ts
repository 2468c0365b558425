/**
 * @module rpc/eventHub: the events RPC clients subscribe to, from what the person's gateway
 * session receives (docs/rpc.md, Events). The person's guild, channel, message and voice events
 * go to the connections subscribed to them; the game events (ACTIVITY_JOIN, ACTIVITY_SPECTATE,
 * ACTIVITY_INVITE, ACTIVITY_JOIN_REQUEST, AUTHORIZE_REQUEST) only to the connections of the
 * application they name. A join request is remembered on the connections told of it, for their answer.
 */
import { rpcVoiceSettings } from './commandsVoice.js';
import type { PendingJoinRequest } from './commandArgs.js';
import type { LocalClient } from './localClient.js';
import { eventKey } from './subscriptions.js';

/** A connection as the hub sees it. */
export interface EventTarget {
  readonly clientId: string | null;
  readonly subscriptions: Set<string>;
  readonly joinRequests: Map<string, PendingJoinRequest>;
  dispatch(evt: string, data: unknown): void;
}

/** The person's gateway session. */
export interface DispatchSource {
  onDispatch(type: string, handler: (data: unknown) => void): void;
  setVoiceSettingsUpdatedCallback(callback: (() => void) | null): void;
}

/** The most join requests a connection keeps unanswered (the oldest go first). */
const MAX_PENDING_JOIN_REQUESTS = 50;
/** Activity invite message type 1: JOIN. */
const JOIN_INVITE = 1;

type Data = Record<string, unknown>;

function record(value: unknown): Data {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Data)
    : {};
}

function sendTo(input: {
  targets: Iterable<EventTarget>;
  key: string;
  evt: string;
  data: unknown;
  applicationId: unknown;
}): void {
  for (const target of input.targets) {
    if (input.applicationId !== undefined && target.clientId !== input.applicationId) continue;
    if (target.subscriptions.has(input.key)) target.dispatch(input.evt, input.data);
  }
}

export function connectEvents(input: {
  source: DispatchSource;
  local: LocalClient;
  personId: string;
  targets: () => Iterable<EventTarget>;
}): void {
  const { source, local, personId } = input;
  /** Sends `evt` to the connections subscribed to `key`. */
  const send = (key: string, evt: string, data: unknown) => {
    sendTo({ targets: input.targets(), key, evt, data, applicationId: undefined });
  };
  /** Sends a game event to the connections of `applicationId` subscribed to it. */
  const toGame = (evt: string, data: unknown, applicationId: unknown) => {
    sendTo({ targets: input.targets(), key: evt, evt, data, applicationId });
  };
  let known = new Set<string>();

  source.onDispatch('RESUMED', () => {
    local.speaking.resend();
  });
  // Who speaks in the followed channel (Guildhall's op 1001, rpc/speakingFollow.ts).
  source.onDispatch('SPEAKING_UPDATE', (d) => {
    const update = record(d);
    const channelId = String(update['channel_id']);
    const evt = update['speaking'] === true ? 'SPEAKING_START' : 'SPEAKING_STOP';
    send(eventKey(evt, channelId), evt, { channel_id: channelId, user_id: update['user_id'] });
  });
  source.onDispatch('READY', (d) => {
    local.speaking.resend();
    local.voice.reset();
    known = new Set(
      ((record(d)['guilds'] as Data[] | undefined) ?? []).map((g) => String(g['id'])),
    );
  });
  source.onDispatch('GUILD_CREATE', (d) => {
    const guild = record(d) as Data & { id: string };
    local.voice.guildCreate(guild);
    if (known.has(guild.id)) return;
    known.add(guild.id);
    send('GUILD_CREATE', 'GUILD_CREATE', { id: guild.id, name: guild['name'] });
  });
  source.onDispatch('VOICE_STATE_UPDATE', (d) => {
    local.voice.update(d as Parameters<LocalClient['voice']['update']>[0]);
  });
  local.voice.onEvent((event) => {
    if (event.evt === 'VOICE_CHANNEL_SELECT') send(event.evt, event.evt, event.data);
    else send(eventKey(event.evt, event.channelId), event.evt, event.data);
  });
  source.setVoiceSettingsUpdatedCallback(() => {
    send('VOICE_SETTINGS_UPDATE', 'VOICE_SETTINGS_UPDATE', rpcVoiceSettings(local));
  });
  source.onDispatch('CHANNEL_CREATE', (d) => {
    const c = record(d);
    send('CHANNEL_CREATE', 'CHANNEL_CREATE', {
      id: c['id'],
      name: c['name'] ?? '',
      type: c['type'],
    });
  });
  for (const evt of ['MESSAGE_CREATE', 'MESSAGE_UPDATE', 'MESSAGE_DELETE']) {
    source.onDispatch(evt, (d) => {
      const message = record(d);
      const channelId = String(message['channel_id']);
      send(eventKey(evt, channelId), evt, { channel_id: channelId, message });
    });
  }
  source.onDispatch('MESSAGE_CREATE', (d) => {
    const message = record(d);
    const activity = record(message['activity']);
    const author = record(message['author']);
    if (activity['type'] !== JOIN_INVITE || author['id'] === personId) return;
    const applicationId = message['application_id'];
    const shown = local
      .activitiesOf(String(author['id']))
      .find((a) => a['application_id'] === applicationId);
    toGame(
      'ACTIVITY_INVITE',
      {
        user: author,
        activity: shown ?? { application_id: applicationId, party: { id: activity['party_id'] } },
        type: JOIN_INVITE,
        channel_id: message['channel_id'],
        message_id: message['id'],
      },
      applicationId,
    );
  });
  source.onDispatch('ACTIVITY_JOIN', (d) => {
    const join = record(d);
    toGame('ACTIVITY_JOIN', { secret: join['secret'] }, join['application_id']);
  });
  source.onDispatch('ACTIVITY_SPECTATE', (d) => {
    const spectate = record(d);
    toGame('ACTIVITY_SPECTATE', { secret: spectate['secret'] }, spectate['application_id']);
  });
  source.onDispatch('ACTIVITY_JOIN_REQUEST', (d) => {
    const request = record(d);
    const user = record(request['user']);
    for (const target of input.targets()) {
      if (target.clientId !== request['application_id']) continue;
      if (!target.subscriptions.has('ACTIVITY_JOIN_REQUEST')) continue;
      const pending = target.joinRequests;
      pending.delete(String(user['id']));
      pending.set(String(user['id']), { user, partyId: String(request['party_id']) });
      if (pending.size > MAX_PENDING_JOIN_REQUESTS)
        pending.delete(pending.keys().next().value ?? '');
      target.dispatch('ACTIVITY_JOIN_REQUEST', { user });
    }
  });
  source.onDispatch('AUTHORIZE_REQUEST', (d) => {
    const applicationId = record(d)['application_id'];
    toGame('AUTHORIZE_REQUEST', { application_id: applicationId }, applicationId);
  });
}
