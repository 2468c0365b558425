/**
 * @module gateway/decode: the one place a dispatch from the bus becomes a typed dispatch. The bus
 * carries JSON from every node; what the gateway reads of a dispatch (intents, MESSAGE_CONTENT,
 * the model of a guild, who it concerns) it reads from the `DispatchBody` made here, narrowing
 * `data` by `type` (domain/dispatch.ts), never by string-keyed reads of an untyped object.
 */
import type { BusEvent } from '../bus/index.js';
import type { DispatchBody, DispatchData, DispatchName } from '../domain/dispatch.js';
import type { DispatchEnvelope } from '../events/dispatcher.js';
import type { DispatchSource } from './session.js';

/**
 * Every dispatch name, at run time. Its type holds it to `DispatchName` both ways: a name a
 * resource registers and this leaves out, or one listed here that nothing registers, fails the
 * typecheck.
 */
const NAMES: Readonly<Record<DispatchName, true>> = {
  ACTIVITY_JOIN: true,
  ACTIVITY_JOIN_REQUEST: true,
  ACTIVITY_SPECTATE: true,
  APPLICATION_COMMAND_AUTOCOMPLETE_RESPONSE: true,
  APPLICATION_COMMAND_PERMISSIONS_UPDATE: true,
  AUTHORIZE_REQUEST: true,
  AUTO_MODERATION_ACTION_EXECUTION: true,
  AUTO_MODERATION_RULE_CREATE: true,
  AUTO_MODERATION_RULE_DELETE: true,
  AUTO_MODERATION_RULE_UPDATE: true,
  CALL_CREATE: true,
  CALL_DELETE: true,
  CALL_UPDATE: true,
  CHANNEL_CREATE: true,
  CHANNEL_DELETE: true,
  CHANNEL_PINS_UPDATE: true,
  CHANNEL_RECIPIENT_ADD: true,
  CHANNEL_RECIPIENT_REMOVE: true,
  CHANNEL_UPDATE: true,
  EMBEDDED_ACTIVITY_UPDATE: true,
  ENTITLEMENT_CREATE: true,
  ENTITLEMENT_DELETE: true,
  ENTITLEMENT_UPDATE: true,
  GUILD_AUDIT_LOG_ENTRY_CREATE: true,
  GUILD_BAN_ADD: true,
  GUILD_BAN_REMOVE: true,
  GUILD_DELETE: true,
  GUILD_EMOJIS_UPDATE: true,
  GUILD_INTEGRATIONS_UPDATE: true,
  GUILD_MEMBER_ADD: true,
  GUILD_MEMBER_REMOVE: true,
  GUILD_MEMBER_UPDATE: true,
  GUILD_ROLE_CREATE: true,
  GUILD_ROLE_DELETE: true,
  GUILD_ROLE_UPDATE: true,
  GUILD_SCHEDULED_EVENT_CREATE: true,
  GUILD_SCHEDULED_EVENT_DELETE: true,
  GUILD_SCHEDULED_EVENT_UPDATE: true,
  GUILD_SCHEDULED_EVENT_USER_ADD: true,
  GUILD_SCHEDULED_EVENT_USER_REMOVE: true,
  GUILD_SOUNDBOARD_SOUND_CREATE: true,
  GUILD_SOUNDBOARD_SOUND_DELETE: true,
  GUILD_SOUNDBOARD_SOUND_UPDATE: true,
  GUILD_STICKERS_UPDATE: true,
  GUILD_UPDATE: true,
  INTEGRATION_CREATE: true,
  INTEGRATION_DELETE: true,
  INTEGRATION_UPDATE: true,
  INTERACTION_CREATE: true,
  INTERACTION_FAILURE: true,
  INTERACTION_MODAL_CREATE: true,
  INTERACTION_SUCCESS: true,
  INVITE_CREATE: true,
  INVITE_DELETE: true,
  LOBBY_CREATE: true,
  LOBBY_DELETE: true,
  LOBBY_MEMBER_ADD: true,
  LOBBY_MEMBER_REMOVE: true,
  LOBBY_MEMBER_UPDATE: true,
  LOBBY_MESSAGE_CREATE: true,
  LOBBY_MESSAGE_DELETE: true,
  LOBBY_MESSAGE_UPDATE: true,
  LOBBY_UPDATE: true,
  MESSAGE_CREATE: true,
  MESSAGE_DELETE: true,
  MESSAGE_DELETE_BULK: true,
  MESSAGE_POLL_VOTE_ADD: true,
  MESSAGE_POLL_VOTE_REMOVE: true,
  MESSAGE_REACTION_ADD: true,
  MESSAGE_REACTION_REMOVE: true,
  MESSAGE_REACTION_REMOVE_ALL: true,
  MESSAGE_REACTION_REMOVE_EMOJI: true,
  MESSAGE_UPDATE: true,
  PRESENCE_UPDATE: true,
  RELATIONSHIP_ADD: true,
  RELATIONSHIP_REMOVE: true,
  RELATIONSHIP_UPDATE: true,
  STAGE_INSTANCE_CREATE: true,
  STAGE_INSTANCE_DELETE: true,
  STAGE_INSTANCE_UPDATE: true,
  SUBSCRIPTION_CREATE: true,
  SUBSCRIPTION_DELETE: true,
  SUBSCRIPTION_UPDATE: true,
  THREAD_CREATE: true,
  THREAD_DELETE: true,
  THREAD_MEMBERS_UPDATE: true,
  THREAD_MEMBER_UPDATE: true,
  THREAD_UPDATE: true,
  TYPING_START: true,
  USER_UPDATE: true,
  VOICE_CHANNEL_EFFECT_SEND: true,
  VOICE_CHANNEL_START_TIME_UPDATE: true,
  VOICE_CHANNEL_STATUS_UPDATE: true,
  VOICE_SERVER_UPDATE: true,
  VOICE_STATE_UPDATE: true,
  WEBHOOKS_UPDATE: true,
};

function isDispatchName(type: string): type is DispatchName {
  return Object.hasOwn(NAMES, type);
}

/** Whether a payload read from JSON is an object (not an array nor a scalar). */
function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` when it is an object, to read its fields as unknowns; else null. */
function asRecord(value: unknown): Record<string, unknown> | null {
  return isObject(value) ? value : null;
}

/**
 * What a gateway knows of a dispatch it received: a known name with an object payload as its
 * typed body; anything else (a name of a newer node, or a payload that is no object) as an
 * untyped remainder, which still routes by its envelope and its name's intent but updates no
 * model and is read no further.
 */
export type ReceivedBody =
  { known: true; body: DispatchBody } | { known: false; type: string; data: unknown };

/**
 * The typed body of `type` and `data` as the bus carried them. The one cast of the gateway's
 * dispatch reads: after checking the name is registered and `data` an object, the payload is
 * taken to be what that name's registration says, since every node announces it through the same
 * typed builders (a node of another version may differ in fields the platform added or dropped;
 * the reads below treat the fields they rely on as the registration types them).
 */
export function decodeBody(type: string, data: unknown): ReceivedBody {
  if (!isDispatchName(type) || !isObject(data)) return { known: false, type, data };
  return { known: true, body: { type, data } as DispatchBody };
}

/**
 * A received dispatch's payload as a plain object, for the reads of whole payloads whatever their
 * name (obfuscation copies a channel's fields) and of dispatches from a newer node whose names
 * this one does not know.
 */
export function payloadRecord(received: ReceivedBody): Record<string, unknown> {
  return asRecord(received.known ? received.body.data : received.data) ?? {};
}

/** The name of a received dispatch, known or not. */
export function bodyType(received: ReceivedBody): string {
  return received.known ? received.body.type : received.type;
}

/** The message a MESSAGE_CREATE or MESSAGE_UPDATE carries; null for any other dispatch. */
export function messageOf(received: ReceivedBody): DispatchData<'MESSAGE_CREATE'> | null {
  if (!received.known) return null;
  const { body } = received;
  return body.type === 'MESSAGE_CREATE' || body.type === 'MESSAGE_UPDATE' ? body.data : null;
}

/** A dispatch as the bus carries it: its envelope, its typed body and where it came from. */
export interface BusDispatch {
  type: string;
  envelope: DispatchEnvelope;
  received: ReceivedBody;
  source: DispatchSource;
}

/** Reads a bus event of a dispatch subject (events/dispatcher.ts writes its envelope). */
export function busDispatch(event: BusEvent): BusDispatch {
  const envelope = event.data as DispatchEnvelope;
  return {
    type: event.type,
    envelope,
    received: decodeBody(event.type, envelope.data),
    source: { id: envelope.id, publishedAt: event.publishedAt },
  };
}
