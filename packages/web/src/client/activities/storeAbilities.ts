/**
 * What the client does for the frame's store, invite and share commands (frameCommands.ts's
 * `EmbeddedAbilities`): the app's SKUs and the person's entitlements from the API, purchases
 * through the test purchase flow after the purchase dialog, users from the store, invites to the
 * activity (`target_type` 2) in a dialog or a DM, and the share dialog.
 *
 * @module
 */
import type { APIInvite, APIMessage } from 'discord-api-types/v10';
import { RpcErrorCodes } from '@guildhall/protocol';
import { api, ApiError } from '../../lib/api.js';
import type { Store } from '../../lib/store.js';
import { inviteUrl } from '../invites/InviteDialog.js';
import { openDm } from '../social/actions.js';
import type { ClientState } from '../state.js';
import { proxyTicket } from './api.js';
import { FrameCommandError } from './frameArgs.js';
import type {
  EmbeddedAbilities,
  SdkEntitlement,
  SdkSku,
  ShareLinkResult,
} from './frameCommands.js';
import {
  sdkEntitlement,
  sdkSku,
  sdkUser,
  type WireEntitlement,
  type WireSku,
} from './sdkShapes.js';

/** The dialogs these commands open. */
export interface StoreQuestions {
  /** The purchase dialog: resolves true when the person buys. */
  purchase(sku: SdkSku): Promise<boolean>;
  /** The invite dialog with the link (it stays open until the person closes it). */
  invite(url: string): void;
  /** The share dialog: how the person shared the link, or null when they closed it. */
  share(message: string, url: string): Promise<'copy' | 'send' | null>;
}

export interface StoreDeps {
  store: Store<ClientState>;
  applicationId: string;
  channelId: string;
  ask: StoreQuestions;
}

/** An API refusal as the frame's error: missing permissions 4006, anything else 1000. */
function frameError(error: unknown): FrameCommandError {
  if (error instanceof ApiError && (error.status === 403 || error.code === 50013)) {
    return new FrameCommandError(RpcErrorCodes.INVALID_PERMISSIONS, error.message);
  }
  const message = error instanceof Error ? error.message : 'Guildhall could not be reached';
  return new FrameCommandError(RpcErrorCodes.UNKNOWN_ERROR, message);
}

/** An API request whose refusal is the frame's error (frameError). */
export async function call<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw frameError(error);
  }
}

/** An invite to the app's activity in the activity's channel (the platform's defaults). */
async function activityInvite(deps: StoreDeps): Promise<string> {
  const invite = await call(() =>
    api<APIInvite>('POST', `/channels/${deps.channelId}/invites`, {
      body: { target_type: 2, target_application_id: deps.applicationId },
    }),
  );
  return inviteUrl(invite.code);
}

async function listSkus(deps: StoreDeps): Promise<SdkSku[]> {
  const skus = await call(() => api<WireSku[]>('GET', `/applications/${deps.applicationId}/skus`));
  return skus.map(sdkSku);
}

/** The purchase dialog, then a test purchase for the person (the API refuses all but the owner). */
async function purchase(deps: StoreDeps, skuId: string): Promise<SdkEntitlement[] | null> {
  const sku = (await listSkus(deps)).find((candidate) => candidate.id === skuId);
  if (sku === undefined) throw new FrameCommandError(RpcErrorCodes.INVALID_PAYLOAD, 'Unknown SKU');
  if (!(await deps.ask.purchase(sku))) return null;
  const me = deps.store.get().me;
  if (me === null) throw new FrameCommandError(RpcErrorCodes.UNKNOWN_ERROR, 'Not connected');
  const bought = await call(() =>
    api<{ entitlement: WireEntitlement }>(
      'POST',
      `/applications/${deps.applicationId}/test-purchases`,
      { body: { sku_id: skuId, user_id: me.id } },
    ),
  );
  return [sdkEntitlement(bought.entitlement)];
}

/** Whether a WebGL context can be had: the browser renders with the GPU. */
function hardwareAcceleration(): boolean {
  try {
    const canvas = document.createElement('canvas');
    return (canvas.getContext('webgl2') ?? canvas.getContext('webgl')) !== null;
  } catch {
    return false;
  }
}

async function shareLink(
  deps: StoreDeps,
  request: { message: string; customId: string | null },
): Promise<ShareLinkResult> {
  const url = await activityInvite(deps);
  const link =
    request.customId === null ? url : `${url}?custom_id=${encodeURIComponent(request.customId)}`;
  const how = await deps.ask.share(request.message, link);
  if (how === 'send') {
    await call(() =>
      api<APIMessage>('POST', `/channels/${deps.channelId}/messages`, {
        body: { content: `${request.message}\n${link}` },
      }),
    );
  }
  return { success: how !== null, didCopyLink: how === 'copy', didSendMessage: how === 'send' };
}

export function createStoreAbilities(
  deps: StoreDeps,
): Omit<EmbeddedAbilities, 'uploadImage' | 'shareMoment' | 'shareInteraction'> {
  const { store, applicationId } = deps;
  return {
    skus: () => listSkus(deps),
    entitlements: async () => {
      const owned = await call(() =>
        api<WireEntitlement[]>('GET', `/users/@me/applications/${applicationId}/entitlements`),
      );
      return owned.map(sdkEntitlement);
    },
    purchase: (skuId) => purchase(deps, skuId),
    user: (userId) => {
      const user = store.get().users[userId];
      return user === undefined ? null : sdkUser(user);
    },
    inviteDialog: async () => {
      deps.ask.invite(await activityInvite(deps));
    },
    inviteUser: async (userId, content) => {
      const url = await activityInvite(deps);
      const dm = await call(() => openDm(store, userId));
      await call(() =>
        api<APIMessage>('POST', `/channels/${dm}/messages`, {
          body: { content: content === null || content === '' ? url : `${content}\n${url}` },
        }),
      );
    },
    shareLink: (request) => shareLink(deps, request),
    proxyTicket: async () => (await proxyTicket(applicationId)).ticket,
    hardwareAcceleration,
  };
}
