/**
 * What the client does for an activity's frame (frameProtocol.ts's `FrameAbilities`), from the
 * client's store, its gateway and the API: READY's config, AUTHORIZE through the local authorize
 * routes (with the person's consent unless `prompt=none` finds the app authorized), AUTHENTICATE
 * through `GET /oauth2/@me`, channels, participants, relationships, the rich presence (op 3).
 * The dialogs are the UI's (`ask`).
 *
 * @module
 */
import { ApiError } from '../../lib/api.js';
import type { GatewayClient } from '../../lib/gateway.js';
import type { Store } from '../../lib/store.js';
import { RpcErrorCodes } from '@guildhall/protocol';
import { setActivityPresence } from '../context.js';
import { channelPermissions } from '../permissions.js';
import type { ClientState } from '../state.js';
import {
  localAuthorize,
  localAuthorizeInfo,
  oauthMe,
  type ActivityInstance,
  type LocalAuthorizeInfo,
} from './api.js';
import {
  FrameCommandError,
  type AuthorizeRequest,
  type FrameAbilities,
  type PresenceActivity,
} from './frameProtocol.js';
import { sdkChannel, sdkParticipant, sdkRelationships, sdkUser } from './sdkShapes.js';
import { joinDelivered } from './state.js';
import { shareInteraction } from './interactionAbilities.js';
import { createMomentAbilities, type MomentQuestions } from './momentAbilities.js';
import { createStoreAbilities, type StoreQuestions } from './storeAbilities.js';

/** The questions the frame may put to the person. */
export interface FrameQuestions {
  /** The consent screen: resolves true when the person authorizes. */
  consent(info: LocalAuthorizeInfo): Promise<boolean>;
  /** "Leaving Guildhall": resolves true when the person opens the link. */
  externalLink(url: string): Promise<boolean>;
}

/** Every dialog a frame may open. */
export type AllQuestions = FrameQuestions & StoreQuestions & MomentQuestions;

export interface AbilityDeps {
  store: Store<ClientState>;
  gateway: GatewayClient;
  applicationId: string;
  instanceId: string;
  ask: AllQuestions;
  /** The frame's size, for ORIENTATION_UPDATE. */
  frameSize: () => { width: number; height: number };
  log: (level: string, message: string) => void;
  closed: () => void;
  /** The activity's channel and guild (GET_CHANNEL_PERMISSIONS). */
  channelId: string;
  guildId: string | null;
  /** Where the page is served (READY's config), and the browser's language. */
  location: { host: string; language: string };
}

/** The OAuth2 error a local authorize answered (RFC 6749 body), as AUTHORIZE's error. */
function oauthError(error: unknown): FrameCommandError {
  if (error instanceof ApiError) {
    return new FrameCommandError(RpcErrorCodes.OAUTH2_ERROR, `OAuth2 Error: ${error.message}`);
  }
  return new FrameCommandError(RpcErrorCodes.UNKNOWN_ERROR, 'Guildhall could not be reached');
}

async function authorize(deps: AbilityDeps, request: AuthorizeRequest) {
  const body = {
    client_id: deps.applicationId,
    scope: request.scope,
    state: request.state,
    code_challenge: request.codeChallenge,
    code_challenge_method: request.codeChallengeMethod,
  };
  let info: LocalAuthorizeInfo;
  try {
    info = await localAuthorizeInfo(deps.applicationId, request.scope);
  } catch (error) {
    throw oauthError(error);
  }
  const skip = request.prompt === 'none' && info.authorized;
  const approved = skip || (await deps.ask.consent(info));
  try {
    // A refusal is sent too: the API answers access_denied, which AUTHORIZE reports.
    const answer = await localAuthorize({
      ...body,
      authorize: approved,
      prompt: skip ? 'none' : null,
    });
    return { code: answer.code };
  } catch (error) {
    throw oauthError(error);
  }
}

function instanceOf(deps: AbilityDeps): ActivityInstance | undefined {
  return deps.store.get().activities.instances[deps.instanceId];
}

/** The participants in the SDK's shape. */
export function participantsOf(state: ClientState, instance: ActivityInstance | undefined) {
  return (instance?.participants ?? []).map((p) => sdkParticipant(p, state.users[p.id]));
}

/** The value an event has now, sent on SUBSCRIBE (null: nothing to send yet). */
function currentEvent(deps: AbilityDeps, evt: string): unknown {
  if (evt === 'ORIENTATION_UPDATE') {
    const { width, height } = deps.frameSize();
    const landscape = width >= height;
    return {
      screen_orientation: landscape ? 1 : 0,
      orientation: landscape ? 'landscape' : 'portrait',
    };
  }
  // The client shows one activity, focused (FOCUSED 0; no picture-in-picture or grid).
  if (evt === 'ACTIVITY_LAYOUT_MODE_UPDATE') return { layout_mode: 0 };
  if (evt === 'ACTIVITY_JOIN') {
    // An invite the person accepted for this app, given once.
    const join = deps.store.get().activities.joins[deps.applicationId];
    if (join === undefined) return null;
    deps.store.set((s) => ({ ...s, activities: joinDelivered(s.activities, deps.applicationId) }));
    return join;
  }
  if (evt === 'ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE') {
    return { participants: participantsOf(deps.store.get(), instanceOf(deps)) };
  }
  return null;
}

/** The abilities of one frame. */
export function createAbilities(deps: AbilityDeps): FrameAbilities {
  const { store } = deps;
  const me = () => {
    const user = store.get().me;
    if (user === null) throw new FrameCommandError(RpcErrorCodes.UNKNOWN_ERROR, 'Not connected');
    return user;
  };
  return {
    ...createStoreAbilities(deps),
    ...createMomentAbilities(deps),
    shareInteraction: (request) => shareInteraction(deps, request),
    ready: () => {
      const user = me();
      return {
        config: {
          cdn_host: deps.location.host,
          api_endpoint: `//${deps.location.host}/api`,
          environment: 'production',
        },
        user: {
          id: user.id,
          username: user.username,
          discriminator: user.discriminator,
          avatar: user.avatar ?? null,
        },
      };
    },
    authorize: (request) => authorize(deps, request),
    oauthMe: (token) =>
      oauthMe(token).catch(() => {
        throw new FrameCommandError(RpcErrorCodes.UNKNOWN_ERROR, 'Guildhall could not be reached');
      }),
    currentUserId: () => me().id,
    channel: (channelId) => sdkChannel(store.get(), channelId),
    participants: () => participantsOf(store.get(), instanceOf(deps)),
    relationships: () => sdkRelationships(store.get()),
    locale: () => me().locale ?? deps.location.language,
    channelPermissions: () => {
      const state = store.get();
      const channel = state.channels[deps.channelId];
      const guild = deps.guildId === null ? undefined : state.guilds[deps.guildId];
      if (channel === undefined || guild === undefined) return null;
      const userId = me().id;
      return channelPermissions({
        guild,
        member: state.members[guild.id]?.[userId],
        userId,
        channel,
      });
    },
    setActivity: (activity: PresenceActivity | null) => {
      // Closing a frame that set nothing sends nothing.
      if (activity === null && store.get().activities.presence === null) return;
      setActivityPresence(deps.gateway, store, activity);
    },
    openExternalLink: (url) => deps.ask.externalLink(url),
    captureLog: deps.log,
    currentEvent: (evt) => {
      if (evt === 'CURRENT_USER_UPDATE') return sdkUser(me());
      return currentEvent(deps, evt);
    },
    closed: deps.closed,
  };
}
