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
 * (`@discord/embedded-app-sdk` 2.5.0, src/schema), or the SDK would drop it. The host keeps the
 * session (handshake, scopes, close) and routes each command to its module: frameAuth.ts
 * (AUTHORIZE, AUTHENTICATE), frameSubscriptions.ts (SUBSCRIBE, UNSUBSCRIBE),
 * frameClientCommands.ts (the client's own) and frameCommands.ts (store, users, sharing).
 *
 * @module
 */
import { FrameOpcodes, RPC_VERSION, RpcCloseCodes, RpcErrorCodes } from '@guildhall/protocol';
import {
  FrameCommandError,
  isExternalUrl,
  isRecord,
  presenceFromArgs,
  type Args,
  type PresenceActivity,
} from './frameArgs.js';
import { authenticate, authorize } from './frameAuth.js';
import { CLIENT_COMMANDS } from './frameClientCommands.js';
import { EMBEDDED_COMMANDS } from './frameCommands.js';
import type { FrameAbilities, FrameContext } from './frameHostTypes.js';
import { FrameSubscriptions } from './frameSubscriptions.js';

export { FrameCommandError, isExternalUrl, presenceFromArgs, type PresenceActivity };
export type {
  AuthorizeRequest,
  FrameAbilities,
  FrameContext,
  OAuthMe,
  ReadyData,
} from './frameHostTypes.js';

/** One message to the frame: `[opcode, payload]`. */
export type FrameMessage = [number, Record<string, unknown>];

/**
 * One frame's side of the protocol: its handshake state, the scopes its AUTHENTICATE granted,
 * and its subscriptions.
 */
export class FrameHost {
  private state: 'waiting' | 'ready' | 'closed' = 'waiting';
  private scopes: Set<string> | null = null;
  /** The application's name, as AUTHENTICATE's answer gave it (the presence's name). */
  private applicationName = '';

  private readonly context: FrameContext;
  private readonly abilities: FrameAbilities;
  private readonly post: (message: FrameMessage) => void;
  private readonly now: () => number;
  private readonly subscriptions: FrameSubscriptions;

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
    this.subscriptions = new FrameSubscriptions(options.context);
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
        return authorize(this.context, this.abilities, args);
      case 'AUTHENTICATE':
        return this.authenticate(args);
      case 'SUBSCRIBE':
        return this.subscriptions.subscribe(evt, args, (scope) => {
          this.requireScope(scope);
        });
      case 'UNSUBSCRIBE':
        return this.subscriptions.unsubscribe(evt);
      default:
        return Object.hasOwn(CLIENT_COMMANDS, cmd)
          ? CLIENT_COMMANDS[cmd]?.(this.commandFrame(), args)
          : this.embeddedCommand(cmd, args);
    }
  }

  /** AUTHENTICATE: the frame gets the scopes its token grants. */
  private async authenticate(args: Args): Promise<unknown> {
    const granted = await authenticate(this.context, this.abilities, args);
    this.scopes = granted.scopes;
    this.applicationName = granted.applicationName;
    return granted.data;
  }

  /** What the client commands (frameClientCommands.ts) use of this frame. */
  private commandFrame() {
    return {
      context: this.context,
      abilities: this.abilities,
      requireScope: (scope: string) => {
        this.requireScope(scope);
      },
      applicationName: () => this.applicationName,
      now: this.now,
    };
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

  private dispatchCurrent(evt: string, args: Args): void {
    const current = this.abilities.currentEvent(evt, args);
    if (current !== null) this.dispatch(evt, current);
  }
}
