/**
 * @module rpc/presenceLink: the daemon's gateway session for the person, which carries the rich
 * presence RPC clients set (op 3). It is the Social SDK's Node client (`@guildhall/social-sdk`,
 * docs/sdk.md) logged in with the person's session token, so HELLO, IDENTIFY, heartbeats, RESUME
 * and the backoff are the SDK's; this subclass adds only what the SDK does not offer a game:
 * publishing a whole list of activities (one per RPC client, each naming its application),
 * spaced out so that the gateway never holds two updates at once, and publishing it again
 * whenever the session becomes ready anew. It also carries what the RPC commands and events need
 * of the person's client: the dispatches it receives (it asks for the guild, voice state and DM
 * intents a person's client has), op 4 for the person's voice state, and the SDK's voice
 * settings (the same ones a game reads with `getVoiceSettings`).
 */
import {
  AuthorizationTokenType,
  Client,
  ClientError,
  ClientStatus,
  LoggingSeverity,
  type VoiceSettings,
  type WebSocketConstructor,
} from '@guildhall/social-sdk';

import { GuildhallGatewayOpcodes } from '@guildhall/protocol';
import type { VoiceSettingsChange, VoiceStateRequest } from './localClient.js';
import type { SpeakingTarget } from './speakingFollow.js';

/** Gateway op 4, VOICE_STATE_UPDATE. */
const VOICE_STATE_OP = 4;
/** GUILDS | GUILD_VOICE_STATES | GUILD_MESSAGES | DIRECT_MESSAGES: what RPC clients hear of. */
export const LOCAL_CLIENT_INTENTS = (1 << 0) | (1 << 7) | (1 << 9) | (1 << 12);

/** Gateway op 3, PRESENCE_UPDATE. */
const PRESENCE_UPDATE_OP = 3;
/**
 * The least time between two op 3s: changes closer together are sent as one, the latest (a game
 * that sets and clears its activity at once publishes where it ended up, and the gateway never
 * holds two of the daemon's updates at the same time).
 */
export const MIN_PRESENCE_INTERVAL_MS = 500;

export interface PresenceLinkOptions {
  /** The API base with its version (`http://127.0.0.1:8080/api/v10`). */
  apiBase: string;
  /** The person's session token (never logged: the SDK redacts it). */
  token: string;
  /** Warnings and errors of the connection, one line each. */
  log: (line: string) => void;
  /** The session ended for good (the token was refused or revoked): the daemon must stop. */
  onFatal: (reason: string) => void;
  /** The gateway's WebSocket (default: the SDK's, `ws`); tests watch the connection with it. */
  WebSocket?: WebSocketConstructor | undefined;
}

/** The activities the daemon publishes for the person (already checked against op 3's rules). */
export type PublishedActivity = Record<string, unknown>;

/** The person's gateway session, publishing the activities of the RPC clients. */
export class PresenceLink extends Client {
  #activities: PublishedActivity[] = [];
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #sessionId: string | null = null;
  #pending: ReturnType<typeof setTimeout> | null = null;
  #markReady: () => void = () => undefined;

  readonly #linkOptions: PresenceLinkOptions;

  /**
   * Resolves when the session is READY the first time: from then on the person's events (an
   * AUTHORIZE_REQUEST, a join request) reach the RPC clients; before it they have nowhere to come
   * from.
   */
  readonly ready = new Promise<void>((resolve) => {
    this.#markReady = resolve;
  });

  constructor(linkOptions: PresenceLinkOptions) {
    super({
      apiBase: linkOptions.apiBase,
      ...(linkOptions.WebSocket === undefined
        ? {}
        : { platform: { WebSocket: linkOptions.WebSocket } }),
    });
    this.#linkOptions = linkOptions;
    this.core.gateway.intents = LOCAL_CLIENT_INTENTS;
    this.core.on('READY', (data) => {
      this.#sessionId = (data as { session_id?: string }).session_id ?? null;
    });
    this.addLogCallback((message) => {
      linkOptions.log(`gateway: ${message}`);
    }, LoggingSeverity.Warning);
    this.setStatusChangedCallback((status, error, detail) => {
      if (status === ClientStatus.Ready) {
        this.#markReady();
        // The SDK shows the new session online with its own (empty) rich presence right after
        // READY: that counts as the last update, and the RPC clients' activities follow it.
        this.#lastSentAt = Date.now();
        if (this.#activities.length > 0) this.#schedule();
      }
      if (status === ClientStatus.Disconnected && error !== ClientError.None) {
        linkOptions.onFatal(
          detail === 4004
            ? 'the gateway refused the session token (close 4004): log in again and write the new token to the token file'
            : `the gateway connection ended (close ${detail})`,
        );
      }
    });
  }

  /**
   * Opens the session in the background (the SDK retries while the gateway is unreachable);
   * activities set before it is READY are published then.
   */
  async start(): Promise<void> {
    await this.updateToken(AuthorizationTokenType.User, this.#linkOptions.token);
    this.connect();
  }

  /** Sends a change still waiting for its turn, then closes the session. */
  stop(): void {
    if (this.#pending !== null) this.#publish();
    this.disconnect();
  }

  /**
   * Replaces the published activities: sent now when connected (or after the last update's
   * interval), else on the next READY.
   */
  setActivities(activities: PublishedActivity[]): void {
    this.#activities = activities;
    this.#schedule();
  }

  /** Calls `handler` with every `type` dispatch of the person's session. */
  onDispatch(type: string, handler: (data: unknown) => void): void {
    this.core.on(type, handler);
  }

  /** Sends op 4 (the person's voice state); false when the session is not connected. */
  sendVoiceState(state: VoiceStateRequest): boolean {
    return this.core.gateway.send(VOICE_STATE_OP, state);
  }

  /** Sends Guildhall's op 1001 (who speaks in a channel); false when not connected. */
  followSpeaking(target: SpeakingTarget): boolean {
    return this.core.gateway.send(GuildhallGatewayOpcodes.SPEAKING_SUBSCRIBE, target);
  }

  /** The gateway session's id. */
  sessionId(): string | null {
    return this.#sessionId;
  }

  /** A user's activities as the session sees them (friends' presences). */
  activitiesOf(userId: string): Record<string, unknown>[] {
    const activities = this.core.state.presences.get(userId)?.activities ?? [];
    return activities as unknown as Record<string, unknown>[];
  }

  /** The voice settings (the SDK's: `getVoiceSettings`). */
  voiceSettings(): VoiceSettings {
    return this.voice.getVoiceSettings();
  }

  /** Changes the voice settings; the settings callback hears of a change. */
  changeVoiceSettings(change: VoiceSettingsChange): void {
    this.voice.settingsChanged(change);
  }

  #schedule(): void {
    if (this.#pending !== null) return;
    const waitMs = this.#lastSentAt + MIN_PRESENCE_INTERVAL_MS - Date.now();
    if (waitMs <= 0) {
      this.#publish();
      return;
    }
    this.#pending = setTimeout(() => {
      this.#publish();
    }, waitMs);
  }

  #publish(): void {
    if (this.#pending !== null) clearTimeout(this.#pending);
    this.#pending = null;
    this.#lastSentAt = Date.now();
    this.core.gateway.send(PRESENCE_UPDATE_OP, {
      since: null,
      afk: false,
      status: 'online',
      activities: this.#activities,
    });
  }
}
