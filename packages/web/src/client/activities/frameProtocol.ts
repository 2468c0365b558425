/**
 * The frame protocol: what the web client answers an activity's embedded app SDK over
 * postMessage (docs/activities.md#the-frame-protocol). Messages are `[opcode, payload]`
 * (`FrameOpcodes`); the SDK opens with HANDSHAKE `{v, client_id, frame_id}` and gets READY, then
 * sends commands `{cmd, args, nonce}`, each answered once with the same nonce: the command's
 * `data`, or `evt: "ERROR"` with an `RpcErrorCodes` code. Subscribed events arrive as
 * `cmd: "DISPATCH"` frames.
 *
 * This module is plain TypeScript with no DOM: the host (ActivityFrame.tsx) gives it a `post`
 * function and the client's abilities (`FrameAbilities`), and feeds it the frame's messages
 * after checking where they came from. Every answer has the shape the SDK's zod schemas accept
 * (`@discord/embedded-app-sdk` 2.5.0, src/schema), or the SDK would drop it.
 *
 * @module
 */
import { FrameOpcodes, RPC_VERSION, RpcCloseCodes, RpcErrorCodes } from '@guildhall/protocol';
import {
  FrameCommandError,
  LOG_LEVELS,
  invalid,
  isExternalUrl,
  isRecord,
  optionalString,
  presenceFromArgs,
  stringArg,
  type Args,
  type PresenceActivity,
} from './frameArgs.js';
import { EMBEDDED_COMMANDS, type EmbeddedAbilities } from './frameCommands.js';

export { FrameCommandError, isExternalUrl, presenceFromArgs, type PresenceActivity };

/** Where the activity runs and who it is: fixed for one frame. */
export interface FrameContext {
  applicationId: string;
  frameId: string;
  instanceId: string;
  channelId: string;
  guildId: string | null;
}

/** READY's config and user. */
export interface ReadyData {
  config: { cdn_host: string; api_endpoint: string; environment: string };
  user: { id: string; username: string; discriminator: string; avatar: string | null };
}

/** AUTHORIZE's request, as the local authorize route takes it (scopes space-separated). */
export interface AuthorizeRequest {
  scope: string;
  prompt: 'none' | null;
  state: string | null;
  codeChallenge: string | null;
  codeChallengeMethod: string | null;
}

/** `GET /oauth2/@me` with the activity's access token (docs/oauth.md). */
export interface OAuthMe {
  application: { id: string; name: string; icon: string | null; description: string };
  scopes: string[];
  expires: string;
  user?: {
    id: string;
    username: string;
    discriminator: string;
    avatar: string | null;
    global_name?: string | null;
    public_flags?: number;
  };
}

/** What the client does for the frame; each may throw a FrameCommandError. */
export interface FrameAbilities extends EmbeddedAbilities {
  ready(): ReadyData;
  /** Shows the consent (unless prompt=none and already authorized); resolves with the code. */
  authorize(request: AuthorizeRequest): Promise<{ code: string }>;
  /** GET /oauth2/@me with `Bearer <token>`; null when the token is not accepted. */
  oauthMe(accessToken: string): Promise<OAuthMe | null>;
  /** The person using the client (an AUTHENTICATE token must be theirs). */
  currentUserId(): string;
  /** GET_CHANNEL's answer for a channel the person sees, or null. */
  channel(channelId: string): unknown;
  /** The instance's participants, in the SDK's participant shape. */
  participants(): unknown[];
  /** The person's locale (their user's, else the browser's). */
  locale(): string;
  /** The person's permissions in the activity's guild channel, or null outside a guild. */
  channelPermissions(): bigint | null;
  /** The person's relationships, in GET_RELATIONSHIPS' shape. */
  relationships(): unknown[];
  /** Publishes (or clears, with null) the person's rich presence for the app. */
  setActivity(activity: PresenceActivity | null): void;
  /** Asks the person; resolves whether the link was opened. */
  openExternalLink(url: string): Promise<boolean>;
  captureLog(level: string, message: string): void;
  /** The value an event has now, dispatched at once on SUBSCRIBE (orientation...), or null. */
  currentEvent(evt: string, args: Record<string, unknown>): unknown;
  /** The activity closed itself (CLOSE from the frame). */
  closed(code: number, message: string): void;
}

/** One message to the frame: `[opcode, payload]`. */
export type FrameMessage = [number, Record<string, unknown>];

/** The events a frame may subscribe to, with the scope each needs (null: none). */
export const FRAME_EVENTS: Record<string, string | null> = {
  ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE: null,
  ACTIVITY_LAYOUT_MODE_UPDATE: null,
  ORIENTATION_UPDATE: null,
  VOICE_STATE_UPDATE: 'rpc.voice.read',
  SPEAKING_START: 'rpc.voice.read',
  SPEAKING_STOP: 'rpc.voice.read',
  CURRENT_USER_UPDATE: 'identify',
  RELATIONSHIP_UPDATE: 'relationships.read',
  CURRENT_GUILD_MEMBER_UPDATE: 'guilds.members.read',
  ENTITLEMENT_CREATE: null,
  ACTIVITY_JOIN: null,
};

/** The scopes GET_CHANNEL needs for a channel: guilds in a guild, dm_channels.read otherwise. */
function channelScope(guildId: string | null): string {
  return guildId === null ? 'dm_channels.read' : 'guilds';
}

/**
 * One frame's side of the protocol: its handshake state, the scopes its AUTHENTICATE granted,
 * and its subscriptions.
 */
export class FrameHost {
  private state: 'waiting' | 'ready' | 'closed' = 'waiting';
  private scopes: Set<string> | null = null;
  /** The application's name, as AUTHENTICATE's answer gave it (the presence's name). */
  private applicationName = '';
  /** Subscribed events, each with the args it was subscribed with (`channel_id`...). */
  private readonly subscriptions = new Map<string, Args>();

  private readonly context: FrameContext;
  private readonly abilities: FrameAbilities;
  private readonly post: (message: FrameMessage) => void;
  private readonly now: () => number;

  constructor(options: {
    context: FrameContext;
    abilities: FrameAbilities;
    post: (message: FrameMessage) => void;
    now?: () => number;
  }) {
    this.context = options.context;
    this.abilities = options.abilities;
    this.post = options.post;
    this.now = options.now ?? Date.now;
  }

  get ready(): boolean {
    return this.state === 'ready';
  }

  /** The scopes AUTHENTICATE granted, or null before it. */
  get authenticatedScopes(): string[] | null {
    return this.scopes === null ? null : [...this.scopes];
  }

  /** One message from the frame (its source and origin already checked by the caller). */
  receive(message: unknown): void {
    if (this.state === 'closed' || !Array.isArray(message) || message.length !== 2) return;
    const [opcode, payload] = message as [unknown, unknown];
    if (!isRecord(payload)) return;
    if (opcode === FrameOpcodes.HANDSHAKE) this.handshake(payload);
    else if (opcode === FrameOpcodes.FRAME && this.state === 'ready') void this.command(payload);
    else if (opcode === FrameOpcodes.CLOSE) this.frameClosed(payload);
  }

  /**
   * Sends an event to the frame when it subscribed to it (and `matches` its args); whether it
   * was sent.
   */
  dispatch(evt: string, data: unknown, matches: (args: Args) => boolean = () => true): boolean {
    const args = this.subscriptions.get(evt);
    if (this.state !== 'ready' || args === undefined || !matches(args)) return false;
    this.post([FrameOpcodes.FRAME, { cmd: 'DISPATCH', evt, nonce: null, data }]);
    return true;
  }

  /** The client closes the frame: its presence is cleared, nothing more is answered. */
  close(): void {
    if (this.state === 'closed') return;
    this.state = 'closed';
    this.abilities.setActivity(null);
  }

  private handshake(payload: Args): void {
    // A second handshake is the activity's page loaded again in the frame: a new session, with
    // nothing authenticated or subscribed yet.
    this.scopes = null;
    this.applicationName = '';
    this.subscriptions.clear();
    if (payload['v'] !== RPC_VERSION) {
      this.refuse(RpcCloseCodes.INVALID_VERSION, `Unsupported version: ${String(payload['v'])}`);
    } else if (payload['encoding'] !== undefined && payload['encoding'] !== 'json') {
      this.refuse(RpcCloseCodes.INVALID_ENCODING, 'Only the json encoding is supported');
    } else if (payload['client_id'] !== this.context.applicationId) {
      this.refuse(RpcCloseCodes.INVALID_CLIENTID, 'Invalid client ID');
    } else if (payload['frame_id'] !== this.context.frameId) {
      this.refuse(RpcCloseCodes.INVALID_ORIGIN, 'Invalid frame ID');
    } else {
      this.state = 'ready';
      const { config, user } = this.abilities.ready();
      const readyUser: Record<string, string> = {
        id: user.id,
        username: user.username,
        discriminator: user.discriminator,
      };
      if (user.avatar !== null) readyUser['avatar'] = user.avatar;
      this.post([
        FrameOpcodes.FRAME,
        {
          cmd: 'DISPATCH',
          evt: 'READY',
          nonce: null,
          data: { v: RPC_VERSION, config, user: readyUser },
        },
      ]);
    }
  }

  private refuse(code: number, message: string): void {
    this.state = 'closed';
    this.post([FrameOpcodes.CLOSE, { code, message }]);
  }

  private frameClosed(payload: Args): void {
    const code = typeof payload['code'] === 'number' ? payload['code'] : RpcCloseCodes.CLOSE_NORMAL;
    const message = typeof payload['message'] === 'string' ? payload['message'] : '';
    this.close();
    this.abilities.closed(code, message);
  }

  private async command(payload: Args): Promise<void> {
    const cmd = typeof payload['cmd'] === 'string' ? payload['cmd'] : '';
    const nonce = typeof payload['nonce'] === 'string' ? payload['nonce'] : null;
    const args = isRecord(payload['args']) ? payload['args'] : {};
    const evt = typeof payload['evt'] === 'string' ? payload['evt'] : null;
    try {
      const data = await this.run(cmd, args, evt);
      if (this.state !== 'ready') return;
      this.post([FrameOpcodes.FRAME, { cmd, evt: null, nonce, data }]);
      // An event's present value (orientation, layout) follows the SUBSCRIBE answer.
      if (cmd === 'SUBSCRIBE' && evt !== null) this.dispatchCurrent(evt, args);
    } catch (error) {
      if (this.state !== 'ready') return;
      const { code, message } =
        error instanceof FrameCommandError
          ? error
          : { code: RpcErrorCodes.UNKNOWN_ERROR, message: 'Unknown error' };
      this.post([FrameOpcodes.FRAME, { cmd, evt: 'ERROR', nonce, data: { code, message } }]);
    }
  }

  /** 4006 unless AUTHENTICATE granted `scope`. */
  private requireScope(scope: string): void {
    if (this.scopes === null) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_PERMISSIONS, 'Not authenticated');
    }
    if (!this.scopes.has(scope)) {
      throw new FrameCommandError(
        RpcErrorCodes.INVALID_PERMISSIONS,
        `Not authenticated or invalid scope (${scope} is needed)`,
      );
    }
  }

  private run(cmd: string, args: Args, evt: string | null): unknown {
    switch (cmd) {
      case 'AUTHORIZE':
        return this.authorize(args);
      case 'AUTHENTICATE':
        return this.authenticate(args);
      case 'GET_CHANNEL':
        return this.getChannel(args);
      case 'GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS':
        return { participants: this.abilities.participants() };
      case 'GET_RELATIONSHIPS':
        this.requireScope('relationships.read');
        return { relationships: this.abilities.relationships() };
      case 'SET_ACTIVITY':
        return this.setActivity(args);
      case 'OPEN_EXTERNAL_LINK':
        return this.openExternalLink(args);
      case 'CAPTURE_LOG':
        return this.captureLog(args);
      case 'USER_SETTINGS_GET_LOCALE':
        this.requireScope('identify');
        return { locale: this.abilities.locale() };
      case 'GET_CHANNEL_PERMISSIONS':
        return this.channelPermissions();
      case 'GET_PLATFORM_BEHAVIORS':
        // The web client has none of the mobile behaviours this reports (iOS keyboard resizing).
        return {};
      case 'SET_ORIENTATION_LOCK_STATE':
        return this.orientationLock(args);
      case 'SUBSCRIBE':
        return this.subscribe(evt, args);
      case 'UNSUBSCRIBE':
        return this.unsubscribe(evt);
      default:
        return this.embeddedCommand(cmd, args);
    }
  }

  /** The store, user, invite, share, config and quest commands (frameCommands.ts). */
  private embeddedCommand(cmd: string, args: Args): unknown {
    const command = Object.hasOwn(EMBEDDED_COMMANDS, cmd) ? EMBEDDED_COMMANDS[cmd] : undefined;
    if (command === undefined) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_COMMAND, `Invalid command: ${cmd}`);
    }
    return command(
      {
        abilities: this.abilities,
        guildId: this.context.guildId,
        requireScope: (scope) => {
          this.requireScope(scope);
        },
        dispatch: (evt, data) => {
          this.dispatch(evt, data);
        },
      },
      args,
    );
  }

  private async authorize(args: Args): Promise<{ code: string }> {
    if (args['client_id'] !== this.context.applicationId) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_CLIENTID, 'Invalid client ID');
    }
    const raw = args['scope'] ?? args['scopes'];
    const list: unknown[] = Array.isArray(raw)
      ? raw
      : typeof raw === 'string'
        ? raw.split(' ')
        : [];
    const scopes = list.filter((s): s is string => typeof s === 'string' && s !== '');
    if (scopes.length === 0 || scopes.length !== list.length) {
      throw invalid('scope must be a list of scopes');
    }
    const responseType = args['response_type'] ?? 'code';
    if (responseType !== 'code') throw invalid('response_type must be code');
    const prompt = optionalString(args, 'prompt');
    if (prompt !== null && prompt !== 'none') throw invalid('prompt must be none');
    return this.abilities.authorize({
      scope: scopes.join(' '),
      prompt,
      state: optionalString(args, 'state'),
      codeChallenge: optionalString(args, 'code_challenge'),
      codeChallengeMethod: optionalString(args, 'code_challenge_method'),
    });
  }

  private async authenticate(args: Args): Promise<unknown> {
    const token = stringArg(args, 'access_token');
    const me = await this.abilities.oauthMe(token);
    // The token must be this app's, for the person using the client.
    if (
      me?.application.id !== this.context.applicationId ||
      me.user?.id !== this.abilities.currentUserId()
    ) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_TOKEN, 'Invalid access token');
    }
    this.scopes = new Set(me.scopes);
    this.applicationName = me.application.name;
    const { application, user } = me;
    return {
      access_token: token,
      user: {
        id: user.id,
        username: user.username,
        discriminator: user.discriminator,
        avatar: user.avatar,
        global_name: user.global_name ?? null,
        public_flags: user.public_flags ?? 0,
      },
      scopes: me.scopes,
      expires: me.expires,
      application: {
        id: application.id,
        name: application.name,
        icon: application.icon,
        description: application.description,
      },
    };
  }

  private getChannel(args: Args): unknown {
    const channelId = stringArg(args, 'channel_id');
    const channel = this.abilities.channel(channelId);
    if (channel === null) {
      throw new FrameCommandError(
        RpcErrorCodes.INVALID_CHANNEL,
        `Invalid channel id: ${channelId}`,
      );
    }
    const guildId = (channel as { guild_id?: string | null }).guild_id ?? null;
    this.requireScope(channelScope(guildId));
    return channel;
  }

  private setActivity(args: Args): unknown {
    this.requireScope('rpc.activities.write');
    if (!('activity' in args)) throw invalid('activity is required');
    const activity = presenceFromArgs(
      args['activity'],
      { id: this.context.applicationId, name: this.applicationName },
      this.now(),
    );
    this.abilities.setActivity(activity);
    // The answer is the activity as published (the SDK's Activity schema); null clears it.
    return activity;
  }

  private async openExternalLink(args: Args): Promise<{ opened: boolean }> {
    const url = stringArg(args, 'url');
    if (!isExternalUrl(url)) throw invalid('url must be an http or https URL');
    return { opened: await this.abilities.openExternalLink(url) };
  }

  private captureLog(args: Args): null {
    const level = stringArg(args, 'level');
    if (!LOG_LEVELS.has(level)) throw invalid('level must be log, warn, debug, info or error');
    const message = args['message'];
    if (typeof message !== 'string') throw invalid('message must be a string');
    this.abilities.captureLog(level, message);
    return null;
  }

  private channelPermissions(): { permissions: string } {
    this.requireScope('guilds.members.read');
    const permissions = this.abilities.channelPermissions();
    if (permissions === null) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_CHANNEL, 'Not in a guild channel');
    }
    return { permissions: permissions.toString() };
  }

  /**
   * Accepted and kept to itself: a desktop browser window has no orientation to lock (as the
   * platform's desktop client, which answers the same).
   */
  private orientationLock(args: Args): null {
    for (const key of ['lock_state', 'picture_in_picture_lock_state', 'grid_lock_state']) {
      const value = args[key];
      if (key !== 'lock_state' && (value === undefined || value === null)) continue;
      if (value !== 1 && value !== 2 && value !== 3) {
        throw invalid(`${key} must be 1 (unlocked), 2 (portrait) or 3 (landscape)`);
      }
    }
    return null;
  }

  private subscribe(evt: string | null, args: Args): { evt: string } {
    if (evt === null || !(evt in FRAME_EVENTS)) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_EVENT, `Invalid event: ${String(evt)}`);
    }
    const scope = FRAME_EVENTS[evt];
    if (scope !== null && scope !== undefined) this.requireScope(scope);
    if ((evt === 'VOICE_STATE_UPDATE' || evt.startsWith('SPEAKING_')) && !this.sameChannel(args)) {
      throw new FrameCommandError(
        RpcErrorCodes.INVALID_CHANNEL,
        'Only the activity channel may be watched',
      );
    }
    if (evt === 'CURRENT_GUILD_MEMBER_UPDATE' && args['guild_id'] !== this.context.guildId) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_GUILD, 'Only the activity guild');
    }
    this.subscriptions.set(evt, args);
    return { evt };
  }

  private dispatchCurrent(evt: string, args: Args): void {
    const current = this.abilities.currentEvent(evt, args);
    if (current !== null) this.dispatch(evt, current);
  }

  /** Voice subscriptions name the activity's channel (or none: the activity's channel). */
  private sameChannel(args: Args): boolean {
    const channelId = args['channel_id'];
    return channelId === undefined || channelId === null || channelId === this.context.channelId;
  }

  private unsubscribe(evt: string | null): { evt: string } {
    if (evt === null || !(evt in FRAME_EVENTS)) {
      throw new FrameCommandError(RpcErrorCodes.INVALID_EVENT, `Invalid event: ${String(evt)}`);
    }
    this.subscriptions.delete(evt);
    return { evt };
  }
}
