/**
 * What the frame protocol's host (frameProtocol.ts) is given: where the activity runs, and the
 * client's abilities it answers the frame's commands with (built by abilities.ts). Its command
 * modules (frameAuth.ts, frameClientCommands.ts) read the same.
 *
 * @module
 */
import type { EmbeddedAbilities } from './frameCommands.js';
import type { PresenceActivity } from './frameArgs.js';

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
