/**
 * Sending interactions the way the platform's own client does (docs/interactions.md#invoking):
 * POST /interactions with the person's session token, the gateway `session_id` and a `nonce`,
 * then waiting for INTERACTION_SUCCESS or INTERACTION_FAILURE carrying that nonce on this
 * person's own gateway session.
 */
import type { APIChannel } from 'discord-api-types/v10';
import { api } from '../../lib/api.js';
import type { GatewayClient } from '../../lib/gateway.js';
import type { Store } from '../../lib/store.js';
import type { ClientState } from '../state.js';

/** Interaction types a person sends. */
export const InteractionKind = {
  COMMAND: 2,
  COMPONENT: 3,
  AUTOCOMPLETE: 4,
  MODAL_SUBMIT: 5,
} as const;
export type InteractionKind = (typeof InteractionKind)[keyof typeof InteractionKind];

/** What the app did with an interaction, as the gateway told this client. */
export type InteractionOutcome = 'success' | 'failure';

/** What sending needs from the client context. */
export interface InteractionClient {
  gateway: GatewayClient;
  store: Store<ClientState>;
}

export interface InteractionRequest {
  type: InteractionKind;
  applicationId: string;
  channel: APIChannel;
  data: Record<string, unknown>;
  /** The message a component is on (type 3). */
  messageId?: string;
  /** Files for attachment options and File Uploads: `files[n]`, named by `data.attachments`. */
  files?: File[];
}

let counter = 0;

/**
 * A nonce unique to this page: the time and a counter, well within the API's 25 characters,
 * so replies to two interactions sent in the same millisecond are told apart.
 */
export function makeInteractionNonce(now = Date.now()): string {
  counter = (counter + 1) % 1_000_000;
  return `${now.toString(36)}.${counter.toString(36)}`;
}

/** The guild of a channel (absent for DMs): POST /interactions wants it for guild channels. */
export function guildIdOf(channel: APIChannel): string | undefined {
  const guildId = (channel as { guild_id?: string }).guild_id;
  return typeof guildId === 'string' ? guildId : undefined;
}

/** The body of POST /interactions. Exported for tests and for autocomplete's own sends. */
export function interactionBody(
  request: InteractionRequest,
  sessionId: string,
  nonce: string,
): Record<string, unknown> {
  const guildId = guildIdOf(request.channel);
  return {
    type: request.type,
    application_id: request.applicationId,
    ...(guildId === undefined ? {} : { guild_id: guildId }),
    channel_id: request.channel.id,
    ...(request.messageId === undefined ? {} : { message_id: request.messageId }),
    session_id: sessionId,
    nonce,
    data: request.data,
  };
}

/**
 * How long to wait for INTERACTION_SUCCESS/FAILURE: the server sends FAILURE 3 s after an
 * unanswered interaction, so this is only reached when the dispatch itself was lost.
 */
export const OUTCOME_TIMEOUT_MS = 15_000;

/**
 * Waits for the outcome dispatch of `nonce`. Listening starts before the POST is sent, since the
 * app may answer before the POST's own answer arrives.
 */
function awaitOutcome(gateway: GatewayClient, nonce: string) {
  let stop: () => void = () => undefined;
  const outcome = new Promise<InteractionOutcome>((resolve) => {
    const mine = (data: unknown) => (data as { nonce?: unknown } | null)?.nonce === nonce;
    const offSuccess = gateway.on('INTERACTION_SUCCESS', (data) => {
      if (mine(data)) finish('success');
    });
    const offFailure = gateway.on('INTERACTION_FAILURE', (data) => {
      if (mine(data)) finish('failure');
    });
    // A new gateway session (not a resume) never hears about the old one's interactions, and a
    // lost dispatch must not leave the UI thinking forever: both count as a failure.
    const offReady = gateway.on('READY', () => {
      finish('failure');
    });
    const timer = setTimeout(() => {
      finish('failure');
    }, OUTCOME_TIMEOUT_MS);
    stop = () => {
      offSuccess();
      offFailure();
      offReady();
      clearTimeout(timer);
    };
    const finish = (result: InteractionOutcome) => {
      stop();
      resolve(result);
    };
  });
  return {
    outcome,
    stop: () => {
      stop();
    },
  };
}

/**
 * Sends one interaction. Resolves once the platform accepted it (204), with the app's outcome
 * still to come; rejects with the API's error (ApiError) when the platform refuses it, or when
 * the gateway session is not ready yet (there is no session_id to send).
 */
export async function startInteraction(
  client: InteractionClient,
  request: InteractionRequest,
  nonce = makeInteractionNonce(),
): Promise<{ outcome: Promise<InteractionOutcome> }> {
  const sessionId = client.store.get().sessionId;
  if (sessionId === null) throw new Error('Not connected yet: try again in a moment.');
  const waiting = awaitOutcome(client.gateway, nonce);
  try {
    await api<undefined>('POST', '/interactions', {
      body: interactionBody(request, sessionId, nonce),
      ...(request.files === undefined || request.files.length === 0
        ? {}
        : { files: request.files }),
    });
  } catch (error) {
    waiting.stop();
    throw error;
  }
  return { outcome: waiting.outcome };
}

/** Sends one interaction and resolves with the app's outcome (see startInteraction). */
export async function sendInteraction(
  client: InteractionClient,
  request: InteractionRequest,
  nonce = makeInteractionNonce(),
): Promise<InteractionOutcome> {
  return (await startInteraction(client, request, nonce)).outcome;
}

/** The message shown when an app did not answer in time (INTERACTION_FAILURE). */
export const NO_RESPONSE = 'The application did not respond';
